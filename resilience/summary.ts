import { pathToFileURL } from 'node:url';
import { printTable } from './lib.js';

/** What each part of the suite answers: its figures and whether every check passed. */
export interface Summary {
  name: string;
  ok: boolean;
  figures: [string, string | number][];
  failures: string[];
}

/** True when the file is the entry point (tsx resilience/<file>.ts), false when run.ts imports it. */
export const isMain = (url: string) => process.argv[1] !== undefined && url === pathToFileURL(process.argv[1]).href;

/** Runs one part on its own: prints its table and failures, exits 1 on any failure. */
export function runAlone(part: () => Promise<Summary>): void {
  part().then(
    (summary) => {
      printTable(`${summary.name}: ${summary.ok ? 'PASS' : 'FAIL'}`, summary.figures);
      for (const failure of summary.failures.slice(0, 50)) console.error(`  FAIL ${failure}`);
      process.exit(summary.ok ? 0 : 1);
    },
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
