import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import { readdirSync } from 'node:fs';

const IMPORT_SETTINGS = {
  'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
  'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
};
const KNEX_ZONE = { name: 'knex', message: 'Only repositories (*.repository.ts) and api/src/db/ use knex: call a repository instead.' };
const SHARP_ZONE = { name: 'sharp', message: 'Only api/src/media/ uses sharp: ask the media service.' };

/** The PWA's features, each a folder under pwa/src/features: none imports app/ or another feature. */
const features = readdirSync(new URL('./pwa/src/features/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  // api/src/media/jsqr/: a copy of jsQR's published bundle with two functions patched (its README.md).
  { ignores: ['node_modules/', 'data/', 'dist/', '.dist-*/', 'pwa/dist/', 'coverage/', 'bench-results/', 'api/src/media/jsqr/jsQR.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // The PWA runs in the browser (and its service worker in a worker scope).
    files: ['pwa/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.serviceworker } },
  },
  {
    // Build and check scripts report progress on the console.
    files: ['scripts/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // Tests assert on values they just created; `!` there is clearer than a guard.
    files: ['**/*.test.ts', '**/*.test.tsx', '**/test/**', '**/*.test-helpers.ts', 'e2e/**', 'pwa/**/*.test.tsx'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Layers (docs/architecture.md): import cycles are refused in the API and the PWA.
    files: ['api/**/*.ts', 'pwa/src/**/*.{ts,tsx}', 'db/**/*.ts'],
    plugins: { import: importPlugin },
    settings: IMPORT_SETTINGS,
    rules: { 'import/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // knex is used only by repositories and the db/ module, sharp only by media/ (tests, benchmarks
    // and scripts make their own images and databases).
    files: ['api/src/**/*.ts'],
    ignores: ['api/src/**/*.test.ts', 'api/src/**/*.test-helpers.ts', 'api/src/db/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [KNEX_ZONE, SHARP_ZONE] }] },
  },
  {
    files: ['api/src/**/*.repository.ts'],
    ignores: ['api/src/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [SHARP_ZONE] }] },
  },
  {
    files: ['api/src/media/**/*.ts'],
    ignores: ['api/src/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [KNEX_ZONE] }] },
  },
  {
    // A PWA feature stands on lib/, components/ and the contract: never on app/ or another feature.
    files: ['pwa/src/features/**/*.{ts,tsx}'],
    plugins: { import: importPlugin },
    settings: IMPORT_SETTINGS,
    rules: {
      'import/no-restricted-paths': [
        'error',
        {
          zones: features.flatMap((feature) => [
            { target: `./pwa/src/features/${feature}`, from: './pwa/src/app', message: 'A feature never imports app/: pass what it needs in.' },
            {
              target: `./pwa/src/features/${feature}`,
              from: './pwa/src/features',
              except: [`./${feature}`],
              message: 'A feature never imports another feature: move what both need to lib/ or components/.',
            },
          ]),
        },
      ],
    },
  },
  {
    files: ['pwa/src/**/*.tsx', 'pwa/src/**/use-*.ts', 'pwa/src/lib/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['api/bench/**', 'api/src/db/migrate-cli.ts', 'api/src/photos/backfill-cli.ts', 'api/src/storage/migrate-cli.ts'],
    rules: { 'no-console': 'off' },
  },
);
