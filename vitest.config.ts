import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // At least 2 workers, also on a 2-CPU machine (CI): the tests wait on PostgreSQL and jsdom as much as they compute.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      'packages/shared',
      'packages/server',
      'packages/web/vitest.config.ts',
      'packages/web/vitest.mocks.config.ts',
    ],
  },
});
