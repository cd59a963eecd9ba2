// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = [
  'assert',
  'buffer',
  'child_process',
  'crypto',
  'dns',
  'events',
  'fs',
  'fs/promises',
  'http',
  'https',
  'net',
  'os',
  'path',
  'process',
  'stream',
  'stream/promises',
  'tls',
  'url',
  'util',
  'worker_threads',
  'zlib',
];

/** Import boundaries per folder: what may not be imported from there, and why. */
const noElectron = {
  name: 'electron',
  message: 'Only src/main/app and src/preload may import electron (keeps the rest testable).',
};
const noNode = [
  { group: ['node:*'], message: 'This folder runs in the browser too: no Node built-ins.' },
];
const noBareNode = NODE_BUILTINS.map((name) => ({
  name,
  message: 'This folder runs in the browser too: no Node built-ins.',
}));

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'bench/results/**',
      'scripts/**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  ...tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['eslint.config.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['src/main/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', '*.config.ts'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            noElectron,
            ...noBareNode,
            { name: 'react', message: 'src/shared is plain TypeScript.' },
          ],
          patterns: noNode,
        },
      ],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { paths: [noElectron, ...noBareNode], patterns: noNode }],
    },
  },
  {
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/app/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron] }] },
  },
);
