import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const REST_IMPORT =
  "import another module's wire mapping from its <noun>.legacy.ts; only src/modules/routes.ts imports *.rest.ts (DESIGN.md §12)";

// Tests keep the rule set they had under recommendedTypeChecked: every rule strictTypeChecked adds
// or tightens is put back to its recommendedTypeChecked setting (or off) for test/**.
const rulesOf = (configs) => Object.assign({}, ...configs.map((c) => c.rules ?? {}));
const RECOMMENDED = rulesOf(tseslint.configs.recommendedTypeChecked);
const STRICT = rulesOf(tseslint.configs.strictTypeChecked);
const STRICT_ONLY_RELAXED = Object.fromEntries(
  Object.keys(STRICT)
    .filter((k) => JSON.stringify(STRICT[k]) !== JSON.stringify(RECOMMENDED[k]))
    // `[severity, {}]`: a bare severity would keep the strict options set earlier (flat config).
    .map((k) => [k, RECOMMENDED[k] === undefined ? 'off' : [RECOMMENDED[k], {}]]),
);

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'data/**',
      'coverage/**',
      'migrations/Migration*.ts',
      'web/src/gql/**',
      '*.js',
      '*.mjs',
      '*.cjs',
      // jest loads its reporter untransformed: plain CommonJS
      'test/support/*.cjs',
      'scripts/*.mjs',
      // a child process the OpenID tests start (plain JavaScript: oidc-provider is an ES module)
      'test/support/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      'no-console': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
      // Left off, with reasons:
      // - The GraphQL enums are string enums whose values are the domain's string-literal unions;
      //   resolvers cast a domain value to its enum at the wire boundary on purpose, which this rule
      //   cannot see is value-identical (11 such casts).
      '@typescript-eslint/no-unsafe-enum-assignment': 'off',
      // - Spreads copy type-graphql input objects (filters) into plain selector objects, and snapshot
      //   an entity before removal; losing the prototype is the point (6 sites).
      '@typescript-eslint/no-misused-spread': 'off',
      // - Decorator/ORM patterns (entity and type-graphql class instances assigned across declared
      //   types); not assessed one by one yet.
      '@typescript-eslint/no-unsafe-class-instance-assignment': 'off',
    },
  },
  // DESIGN.md §12: no module imports another module's route file (`*.rest.ts`); the legacy
  // wire shapes they share live in `<noun>.legacy.ts`. src/modules/routes.ts mounts the routes.
  {
    files: ['src/modules/*/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^\\.\\./.*\\.rest(\\.js)?$', message: REST_IMPORT }] },
      ],
    },
  },
  {
    files: ['src/modules/*.ts'],
    ignores: ['src/modules/routes.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '\\.rest(\\.js)?$', message: REST_IMPORT }] }],
    },
  },
  {
    // DESIGN §12: a service gets the services it calls in its constructor (wired in
    // src/modules/services.ts). Only the handlers (REST routes, resolvers and their legacy wire
    // mappers) reach services through the request context.
    files: ['src/**/*.ts'],
    ignores: [
      'src/modules/**/*.rest.ts',
      'src/modules/**/*.resolver.ts',
      'src/modules/**/*.legacy.ts',
      'src/core/context.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='services']",
          message:
            'Outside handlers, take the services you call in the constructor (wired in src/modules/services.ts) instead of reaching them through the request context.',
        },
        {
          selector:
            "VariableDeclarator[init.name=/^(ctx|context)$/] > ObjectPattern > Property[key.name='services']",
          message:
            'Outside handlers, take the services you call in the constructor (wired in src/modules/services.ts) instead of reaching them through the request context.',
        },
      ],
    },
  },
  {
    files: ['scripts/**/*.ts', 'test/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      ...STRICT_ONLY_RELAXED,
      '@typescript-eslint/return-await': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
  {
    // the web app: JSX event handlers are arrow shorthands around setters (`onInput={(e) => set(…)}`)
    files: ['web/**/*.ts', 'web/**/*.tsx'],
    rules: {
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
    },
  },
);
