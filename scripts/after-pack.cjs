// electron-builder afterPack hook: flips the fuses of scripts/fuses.cjs in the packaged binary,
// before signing (electron-builder signs after this hook).
const path = require('node:path');
const { flipFuses } = require('@electron/fuses');
const { fuseConfig } = require('./fuses.cjs');

module.exports.default = async function afterPack(context) {
  const platform = context.electronPlatformName;
  const name = context.packager.appInfo.productFilename;
  const binary =
    platform === 'darwin'
      ? path.join(context.appOutDir, `${name}.app`)
      : platform === 'win32'
        ? path.join(context.appOutDir, `${name}.exe`)
        : path.join(context.appOutDir, context.packager.executableName);
  // arm64 macOS binaries carry an ad-hoc signature that flipping invalidates.
  await flipFuses(binary, fuseConfig(platform === 'darwin' && context.arch === 3));
};
