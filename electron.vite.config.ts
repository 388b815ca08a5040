import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import pkg from './package.json';

const define = { __APP_VERSION__: JSON.stringify(pkg.version) };
// scripts/build-if-changed.mjs builds into a fresh folder and renames it to out/, so that no
// reader of out/ (a test, a running seat) sees a build in progress.
const outDir = process.env.REELSCOUT_OUT_DIR ? resolve(process.env.REELSCOUT_OUT_DIR) : resolve(__dirname, 'out');

export default defineConfig({
  main: {
    define,
    build: {
      outDir: resolve(outDir, 'main'),
      // electron-store and conf are ESM-only: bundle them into the CJS main instead of require()-ing them.
      externalizeDeps: { exclude: ['electron-store', 'conf'] },
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src-main/index.ts'),
          // The same core without Electron: `npm run start:web`.
          web: resolve(__dirname, 'src-main/web/main.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: resolve(outDir, 'preload'),
      // A sandboxed preload cannot require node_modules: bundle everything into one CJS file.
      externalizeDeps: false,
      rollupOptions: { input: { index: resolve(__dirname, 'src-preload/index.ts') } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src-renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(outDir, 'renderer'),
      rollupOptions: { input: resolve(__dirname, 'src-renderer/index.html') },
    },
  },
});
