// Lint: typescript-eslint's recommended rules over src/, test/ and bench/, plus three type-aware rules
// about promises (a dropped promise loses its error and its ordering). Types come from tsconfig.json
// (`project`: one program for the run, faster than `projectService` here), so everything linted must
// be in tsconfig.json's `include`.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // node:test's test()/describe() (and .skip/.todo/.only) return promises the runner itself
      // awaits. The allowance matches by name, so it also covers the subtest method t.test(): the
      // rule below makes those awaited.
      '@typescript-eslint/no-floating-promises': ['error', {
        allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite', 'skip', 'todo', 'only'] }],
      }],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: "ExpressionStatement > CallExpression[callee.type='MemberExpression'][callee.property.name=/^(test|describe|it|suite)$/]",
        message: 'Await a subtest (`await t.test(...)`): node:test cancels subtests still running when their parent ends.',
      }],
    },
  },
);
