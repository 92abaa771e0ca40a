import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Shared code has one owner and a public entry point: the provider reaches the operator only
// through operator/runtime/index.ts and operator/api/index.ts, and the runtime needs nothing
// from the rest of the operator.
const operatorInternals = {
  regex: '^(\\.\\./)+operator/(?!(runtime|api)/index\\.ts$)',
  message: 'capm3-provider may import the operator only through operator/runtime/index.ts or operator/api/index.ts.',
};
// The IP address manager is a module of its own: the rest of the provider sees its index.ts only.
const ipamInternals = {
  regex: '^(\\.\\./)+ipam/(?!index\\.ts$)',
  message: 'outside capm3-provider/ipam, import the IPAM only through capm3-provider/ipam/index.ts.',
};
const runtimeMessage = 'operator/runtime is shared with capm3-provider and must not depend on the rest of the operator.';

export default tseslint.config(
  { ignores: ['node_modules/**', 'ironic-client/generated/**', 'coverage/**', 'dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['capm3-provider/**/*.ts'],
    ignores: ['capm3-provider/ipam/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [operatorInternals, ipamInternals] }] },
  },
  {
    files: ['capm3-provider/ipam/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [operatorInternals] }] },
  },
  {
    files: ['operator/runtime/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '^\\.\\./', message: runtimeMessage }] }] },
  },
  {
    files: ['operator/runtime/testing/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '^\\.\\./\\.\\./', message: runtimeMessage }] }] },
  },
);
