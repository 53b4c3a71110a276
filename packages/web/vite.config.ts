import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const server = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
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
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across deployments.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/,
            },
            {
              name: 'mantine',
              test: /[\\/]node_modules[\\/](@mantine|@floating-ui|react-remove-scroll.*|react-number-format|clsx)[\\/]/,
            },
            // Libraries loaded with import() (the password dictionaries, the captcha widget) stay out of the eager
            // vendor chunk, so pages that do not use them never download them.
            {
              name: 'vendor',
              test: /[\\/]node_modules[\\/](?!@zxcvbn-ts[\\/]|altcha[\\/]|echarts[\\/]|zrender[\\/]|tslib[\\/])/,
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
      // Exact paths only: a prefix would also catch the SPA route /logout-confirm.
      '^/(login|logout|logout-inactivity|check-terms|password/forgot|password/reset)(\\?.*)?$': server,
    },
  },
});
