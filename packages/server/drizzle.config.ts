import { defineConfig } from 'drizzle-kit';

// Only `generate` is used: migrations are SQL files committed under src/db/migrations and applied at start-up.
export default defineConfig({
  dialect: 'postgresql',
  schema: './packages/server/src/db/schema/index.ts',
  out: './packages/server/src/db/migrations',
});
