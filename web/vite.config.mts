import { defineConfig } from 'vite';

/** The web catalog browser: built by `npm run build` into dist/web, served by the API at `/`. */
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 1000,
  },
});
