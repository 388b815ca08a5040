import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import local from './eslint-rules/index.mjs';

const noElectron = {
  'no-restricted-imports': [
    'error',
    {
      paths: [{ name: 'electron', message: 'Only src-main/index.ts, src-main/ipc and src-preload may touch Electron.' }],
      patterns: [{ group: ['electron/*'], message: 'Only src-main/index.ts, src-main/ipc and src-preload may touch Electron.' }],
    },
  ],
};

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'dist/**', '.tmp/**', 'test-results/**', 'docs/team-library-experiments/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-require-imports': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['scripts/**/*.mjs', 'src-main/**/*.cjs', '**/*.cjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', require: 'readonly', module: 'writable', __dirname: 'readonly', Buffer: 'readonly', URL: 'readonly' } },
  },
  // Layering (as in VS Code's common/node/electron-main): core, shared code, the web transport and
  // the renderer run without Electron, so they must never import it.
  { files: ['src-main/core/**', 'src-main/web/**', 'src-shared/**', 'src-renderer/**', 'test/**', 'bench/**'], rules: noElectron },
  // The project's own rules (eslint-rules/index.mjs): imports go down the layers, SQL lives with the
  // owner of its table (docs/sql-statements.sql lists them by owner).
  {
    files: ['src-main/**/*.ts', 'src-shared/**/*.ts', 'src-renderer/**/*.{ts,tsx}'],
    plugins: { local },
    rules: { 'local/layers': 'error', 'local/sql-in-stores': 'error' },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
);
