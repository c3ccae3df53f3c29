/**
 * The layer rules of the house (docs/architecture.md, "Layers"), checked by `npm run lint`:
 * core ← engines (permission, outbox, metadata-store, removal) ← feature modules ← transports
 * (`*.rest.ts`, `*.resolver.ts`, `*.legacy.ts`, GraphQL `*.types.ts`) ← the composition root
 * (`src/modules/{services,routes,resolvers,jobs,loaders,entities}.ts`, `src/app.ts`,
 * `src/main.ts`, `src/cli/`). No import cycle anywhere.
 */
const ENGINES = '(permission|outbox|metadata-store|removal)';
const TRANSPORT = '\\.(rest|resolver|legacy|types)\\.ts$';
const ROOT_FILES = '^src/modules/(services|routes|resolvers|jobs|loaders|entities)\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'Files that import each other in a loop (type-only imports count too).',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'core-is-the-ground',
      comment: 'src/core knows no module, transport or entry point.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/(modules|cli|ingestors|app\\.ts|main\\.ts)' },
    },
    {
      name: 'engines-import-no-feature',
      comment: 'The shared engines sit under every feature module: they import only core and each other.',
      severity: 'error',
      from: { path: `^src/modules/${ENGINES}/` },
      to: { path: '^src/modules/', pathNot: `^src/modules/${ENGINES}/` },
    },
    {
      name: 'features-import-no-transport',
      comment:
        'Services, policies, queries, entities and loaders know nothing of GraphQL types, REST handlers or the legacy wire.',
      severity: 'error',
      from: { path: '^src/modules/[^/]+/', pathNot: TRANSPORT },
      to: { path: TRANSPORT },
    },
    {
      name: 'nothing-imports-the-root',
      comment: 'The composition root wires the modules; no module reaches back into it.',
      severity: 'error',
      from: { path: '^src/modules/[^/]+/' },
      to: { path: ROOT_FILES },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
