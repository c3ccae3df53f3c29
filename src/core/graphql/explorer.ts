import path from 'node:path';
import { Router } from 'express';

/**
 * An offline GraphQL explorer: GraphiQL served from the installed packages (no CDN). Nothing is
 * pre-filled in the Headers tab (the schema loads anonymously: introspection needs no key); a
 * line above the editor says where the key goes.
 */
const packageDir = (name: string): string => path.dirname(require.resolve(`${name}/package.json`));
const ASSETS: Record<string, string> = {
  'react.js': path.join(packageDir('react'), 'umd', 'react.production.min.js'),
  'react-dom.js': path.join(packageDir('react-dom'), 'umd', 'react-dom.production.min.js'),
  'graphiql.js': path.join(packageDir('graphiql'), 'graphiql.min.js'),
  'graphiql.css': path.join(packageDir('graphiql'), 'graphiql.min.css'),
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Catalog GraphQL explorer</title>
<link rel="stylesheet" href="/graphql/assets/graphiql.css">
<style>
html,body{height:100%;margin:0}
body{display:flex;flex-direction:column;font-family:system-ui,sans-serif}
#hint{padding:6px 12px;font-size:14px;background:#f3f5f8;border-bottom:1px solid #d8dde6}
#hint code{background:#e6e9ef;padding:1px 4px;border-radius:3px}
#explorer{flex:1;min-height:0}
</style>
</head>
<body>
<div id="hint">The schema and docs load without a key. To run queries, open <b>Headers</b> (below the editor) and enter
<code>{"Authorization": "Bearer &lt;your API key&gt;"}</code>. Keys: printed at the first start, or
<code>npm run admin -- create-key --user &lt;you&gt;</code>.</div>
<div id="explorer">Loading the explorer…</div>
<script src="/graphql/assets/react.js"></script>
<script src="/graphql/assets/react-dom.js"></script>
<script src="/graphql/assets/graphiql.js"></script>
<script>
  const fetcher = GraphiQL.createFetcher({ url: window.location.origin + '/graphql' });
  const defaultQuery = '# Put your key in Headers: {"Authorization": "Bearer <key>"}\\n{\\n  me {\\n    user { uniqueId username }\\n    projects { role project { projectId title } }\\n  }\\n}\\n';
  ReactDOM.createRoot(document.getElementById('explorer')).render(
    React.createElement(GraphiQL, {
      fetcher,
      defaultQuery,
      headerEditorEnabled: true,
      shouldPersistHeaders: true,
      defaultEditorToolsVisibility: 'headers',
    }),
  );
</script>
</body>
</html>`;

export function explorerRouter(): Router {
  const router = Router();
  router.get('/graphql', (req, res, next) => {
    if (
      !req.accepts(['application/json', 'text/html']) ||
      req.accepts(['application/json', 'text/html']) !== 'text/html'
    ) {
      next();
      return;
    }
    if (req.query.query !== undefined) {
      next();
      return;
    }
    res.type('html').send(PAGE);
  });
  router.get('/graphql/assets/:name', (req, res) => {
    const file = ASSETS[req.params.name];
    if (!file) {
      res.status(404).json({ detail: 'No such asset' });
      return;
    }
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.sendFile(file);
  });
  return router;
}
