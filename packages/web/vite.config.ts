import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const server = 'http://127.0.0.1:8080';

/**
 * Writes file.br and file.gz beside every text asset of the build, which the server sends as they are to browsers
 * that accept them (@fastify/static preCompressed): about a quarter of the bytes, compressed once at build time at
 * the highest levels instead of on every request.
 */
function precompress(): Plugin {
  return {
    name: 'portal-precompress',
    apply: 'build',
    // After the files are written (not for builds kept in memory), over the whole folder (public/ files too).
    writeBundle(options) {
      const outDir = options.dir;
      if (!outDir) return;
      const visit = (dir: string) => {
        for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
          const file = path.join(dir, entry.name);
          if (entry.isDirectory()) visit(file);
          else if (/\.(js|mjs|css|html|svg|json|txt|map)$/.test(entry.name) && fs.statSync(file).size >= 1024) {
            const data = fs.readFileSync(file);
            fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
            fs.writeFileSync(
              `${file}.br`,
              zlib.brotliCompressSync(data, {
                params: {
                  [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
                  [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
                },
              }),
            );
          }
        }
      };
      visit(outDir);
    },
  };
}

export default defineConfig({
  plugins: [
    precompress(),
    react({
      // @portal/shared is linked into the workspace, so it is not under node_modules; it is compiled JS without JSX
      // and needs no transform (which would also make Vite resolve the root tsconfig and its references).
      exclude: [/\/node_modules\//, /\/packages\/shared\/dist\//],
    }),
  ],
  // Module workers: the password-strength worker loads the dictionaries with import() (code splitting needs ES).
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    // Every browser the portal supports has modulepreload: no polyfill. index.html preloads the entry's imports; a
    // lazy screen's own imports are not listed ahead in the chunk that loads it (in the entry chunk, that list of
    // every screen's files weighed 4 KB gzipped on the login page, bench/budgets.ts): the browser fetches them when
    // the screen's chunk arrives. Its CSS still comes with it. (Measured on the policy page: Lighthouse no worse.)
    modulePreload: {
      polyfill: false,
      resolveDependencies: (_file, deps, { hostType }) =>
        hostType === 'html' ? deps : deps.filter((dep) => dep.endsWith('.css')),
    },
    emptyOutDir: true,
    rolldownOptions: {
      // Building a zod schema has no side effect: a schema no screen uses is left out (the bundler cannot tell).
      treeshake: { manualPureFunctions: ['z'] },
      output: {
        // React and the router are on every page and change less often than the app: a chunk of their own stays
        // cached across deployments. No other library is grouped: a group also takes in everything its modules
        // import, and a catch-all vendor or Mantine group pulled the editor (Tiptap, ProseMirror) and every
        // library of every screen into what the login page downloads (624 KB gzipped; bench/budgets.ts: <= 170 KB).
        // Rolldown's own splitting gives each lazy screen (routes.tsx) its libraries and shares common ones.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': server,
      '/healthz': server,
      '/readyz': server,
      '/sanctum': server,
      // The superadmin API (/super/projects, /super/notifications), not the SPA's /superadmin pages.
      '^/super/': server,
      // Single sign-on: a provider's sign-in, its callback and the terms step (/auth/oidc/..., /auth/sso/...).
      '^/auth/': server,
      // Exact paths only: a prefix would also catch the SPA route /logout-confirm.
      '^/(login|logout|logout-inactivity|check-terms|password/forgot|password/reset)(\\?.*)?$': server,
    },
  },
});
