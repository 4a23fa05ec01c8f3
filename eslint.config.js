// ESLint over every TypeScript and JavaScript file of the repository (npm run lint; scripts/run.sh test runs it).
// ESLint's and typescript-eslint's recommended rules without type information, so the whole tree lints in well under
// a minute; the type check is tsc's (tsconfig.json, platform/tsconfig.json). Layout is prettier's (npm run format):
// the one layout rule here is the line budget, for what prettier cannot shorten.
import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  // The same files .prettierignore keeps out: tools/gen writes these (gen --check holds them), and build outputs.
  globalIgnores([
    'contract/',
    'lib/generated/',
    'bindings/koffi/generated.ts',
    'bindings/koffi/errc.ts',
    'dist/',
    'build/',
    'build-*/',
    'prebuilds/',
    'coverage/',
    '.cache/',
    'platform/data/',
    'platform/dist/',
  ]),
  {
    files: ['**/*.{ts,mts,cts,js,mjs,cjs}'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    languageOptions: { globals: globals.node },
    plugins: { '@stylistic': stylistic },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // An underscore names a parameter kept for its position, and `const { dropped: _, ...rest } = x` is how the
      // code leaves a field out of a copy: neither is an unused variable.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // A closure that reads a variable assigned further down (two objects that need each other) is not a const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Off: the code matches control characters on purpose (attachment names, ANSI colours in log lines).
      'no-control-regex': 'off',
      // The line budget prettier formats to (.prettierrc.json). Prettier cannot break a string, a template literal,
      // a regular expression or a URL, so those may run over; a comment or code over 120 is a finding (prettier
      // does not wrap comments: rewrap them by hand).
      '@stylistic/max-len': [
        'error',
        {
          code: 120,
          tabWidth: 2,
          ignoreStrings: true,
          ignoreTemplateLiterals: true,
          ignoreRegExpLiterals: true,
          ignoreUrls: true,
        },
      ],
    },
  },
  {
    // Off in tests and benchmarks: they read the platform's JSON answers and frames untyped, and `any` is that
    // reading, not a hole in a typed API (the SDK, the platform and the tools keep the rule).
    files: ['test/**', 'platform/test/**', 'bench/**', 'platform/bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // CommonJS files (scripts/install-native.cjs and the like) load with require().
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
