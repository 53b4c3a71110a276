import { defineProject, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineProject({
    test: {
      name: 'web',
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['./src/test/setup.ts'],
      // Screens driven through many steps in jsdom take seconds when the whole suite runs in parallel.
      testTimeout: 20_000,
      restoreMocks: true,
      unstubGlobals: true,
      // West of UTC: a date shown in local time instead of UTC would land on the previous day and fail.
      env: { TZ: 'America/Los_Angeles' },
    },
  }),
);
