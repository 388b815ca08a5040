// Replaced at build time by electron-vite's define; plain Node (tests, tsx) reads package.json.
declare const __APP_VERSION__: string | undefined;

export const APP_VERSION: string =
  typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : (require('../../../package.json') as { version: string }).version;
