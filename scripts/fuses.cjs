// Electron fuses flipped in every packaged binary (electron-builder afterPack, scripts/after-pack.cjs).
// Each one closes a way to run the app's binary as something else:
const { FuseV1Options, FuseVersion } = require('@electron/fuses');

/** @type {Record<string, boolean>} fuse name -> value, as the README lists them */
const FUSES = {
  // ELECTRON_RUN_AS_NODE would turn the signed app into a general Node interpreter.
  RunAsNode: false,
  // Cookies and local storage encrypted with the OS keychain.
  EnableCookieEncryption: true,
  // NODE_OPTIONS could preload arbitrary code into the main process.
  EnableNodeOptionsEnvironmentVariable: false,
  // --inspect and friends would open a debugger into the main process.
  EnableNodeCliInspectArguments: false,
  // app.asar is checked against the hash embedded at build time (macOS and Windows).
  EnableEmbeddedAsarIntegrityValidation: true,
  // Only app.asar is loaded: no loose app folder beside it can take its place.
  OnlyLoadAppFromAsar: true,
  // file:// gets no more than a web page's rights; the renderer comes from app:// anyway.
  GrantFileProtocolExtraPrivileges: false,
};

function fuseConfig(resetAdHocDarwinSignature) {
  const config = { version: FuseVersion.V1, resetAdHocDarwinSignature };
  for (const [name, value] of Object.entries(FUSES)) {
    if (!(name in FuseV1Options)) throw new Error(`unknown fuse ${name}`);
    config[FuseV1Options[name]] = value;
  }
  return config;
}

module.exports = { FUSES, fuseConfig };
