import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineProject, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Test files that replace modules with vi.mock. They run in the `web-mocks` project, isolated; every other file
 * shares one module graph per worker (`isolate: false`), which saves loading React and Mantine again for each file
 * (decision record 011).
 */
export const MOCKING_FILES = fs
  .readdirSync(path.join(here, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.test\.tsx?$/.test(file))
  .map((file) => `src/${file.split(path.sep).join('/')}`)
  .filter((file) => /\bvi\.mock\(/.test(fs.readFileSync(path.join(here, file), 'utf8')))
  .sort();

/** The web tests' settings; `mocks` selects the isolated project of the files that use vi.mock. */
export function webProject(mocks: boolean) {
  return mergeConfig(
    viteConfig,
    defineProject({
      test: {
        name: mocks ? 'web-mocks' : 'web',
        environment: 'jsdom',
        include: mocks ? MOCKING_FILES : ['src/**/*.test.{ts,tsx}'],
        exclude: mocks ? [] : MOCKING_FILES,
        isolate: mocks,
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
}

export default webProject(false);
