// npm run test:resilience: the crash loop, the notices through kills, the graceful shutdown and the several-instances test in sequence, then
// one summary. Not part of CI (minutes long; needs PostgreSQL on 127.0.0.1:5432 and nginx). Exits 1 on any failure.
import { crashLoop } from './crash-loop.js';
import { graceful } from './graceful.js';
import { printTable } from './lib.js';
import { multiInstance } from './multi-instance.js';
import { noticesCrash } from './notices-crash.js';
import type { Summary } from './summary.js';

const parts: [string, () => Promise<Summary>][] = [
  ['crash loop', crashLoop],
  ['notices through kills', noticesCrash],
  ['graceful shutdown', graceful],
  ['several instances', multiInstance],
];
const summaries: Summary[] = [];
for (const [name, part] of parts) {
  const started = Date.now();
  console.log(`\n=== ${name}`);
  try {
    const summary = await part();
    summary.figures.push(['duration (s)', ((Date.now() - started) / 1000).toFixed(0)]);
    summaries.push(summary);
  } catch (error) {
    console.error(error);
    summaries.push({ name, ok: false, figures: [], failures: [`did not run to the end: ${String(error)}`] });
  }
}
console.log('\n=== Resilience summary');
for (const s of summaries) {
  printTable(`${s.name}: ${s.ok ? 'PASS' : 'FAIL'}`, s.figures);
  for (const f of s.failures.slice(0, 50)) console.error(`  FAIL ${f}`);
}
const ok = summaries.every((s) => s.ok);
console.log(`\n${ok ? 'PASS' : 'FAIL'}: ${summaries.filter((s) => s.ok).length}/${summaries.length} parts passed`);
process.exit(ok ? 0 : 1);
