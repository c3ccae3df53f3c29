import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * Typed operations for the web app, checked against the committed schema.graphql: an operation
 * that does not validate fails codegen (and `npm run check:drift`, which also compares the output
 * with the committed web/src/gql).
 */
const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['web/src/**/*.{ts,tsx}', '!web/src/gql/**'],
  ignoreNoDocuments: false,
  generates: {
    'web/src/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        documentMode: 'string',
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: {
          DateTimeISO: 'string',
          JSON: 'unknown',
          JSONObject: 'Record<string, unknown>',
          SafeInt: 'number',
          Upload: 'File',
        },
      },
    },
  },
};

export default config;
