import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import pkg from './package.json';

const define = { __APP_VERSION__: JSON.stringify(pkg.version) };

export default defineConfig({
  main: {
    define,
    build: {
      outDir: 'out/main',
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
      outDir: 'out/preload',
      // A sandboxed preload cannot require node_modules: bundle everything into one CJS file.
      externalizeDeps: false,
      rollupOptions: { input: { index: resolve(__dirname, 'src-preload/index.ts') } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src-renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      rollupOptions: { input: resolve(__dirname, 'src-renderer/index.html') },
    },
  },
});
