import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'dist/', 'pwa/dist/', 'coverage/', 'bench-results/'] },
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
    files: ['api/bench/**', 'api/src/db/migrate-cli.ts', 'api/src/photos/backfill-cli.ts', 'api/src/storage/migrate-cli.ts'],
    rules: { 'no-console': 'off' },
  },
);
