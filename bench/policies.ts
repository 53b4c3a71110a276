// npx tsx bench/policies.ts: the policy table of contents and search at the sizes of issue 6, through the real
// routes (fastify.inject: the whole request pipeline without the network) on a real PostgreSQL.
//   - GET .../documents (what the TOC renders) with 5,000 documents in the project: target p95 < 100 ms
//   - GET .../search with 10,000 documents in the project: target p95 < 50 ms
// Uses BENCH_DATABASE_URL (a server URL, e.g. postgres://postgres@127.0.0.1:5432/postgres) or an embedded
// PostgreSQL in a temporary folder. Creates and drops its own database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../packages/server/src/app.js';
import { loadConfig } from '../packages/server/src/config.js';
import { connectDatabase } from '../packages/server/src/db/client.js';
import { startEmbeddedPostgres } from '../packages/server/src/db/embedded-postgres.js';
import { runMigrations } from '../packages/server/src/db/migrate.js';
import { createAgent } from '../packages/server/test/agent.js';
import { addMember, createProject, createUser, setMainRole, TEST_PASSWORD } from '../packages/server/test/factories.js';
import { createMailbox } from '../packages/server/test/mailbox.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WORDS = `patient nurse medication dose catheter infection hygiene hand isolation falls pressure injury wound
  consent identification handover escalation sepsis oxygen transfusion blood allergy pharmacy insulin heparin
  opioid restraint seclusion discharge admission triage emergency surgery anaesthesia sterile instrument laundry
  waste sharps needle glove gown mask visitor interpreter privacy record audit incident review policy procedure
  training competency supervision equipment alarm monitor bed chair mattress nutrition fluid pain sedation`
  .split(/\s+/)
  .filter(Boolean);

function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main() {
  let serverUrl = process.env.BENCH_DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!serverUrl) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-pg-'));
    fs.chmodSync(dataDir, 0o755);
    const embedded = await startEmbeddedPostgres({ dataDir, database: 'postgres' });
    serverUrl = embedded.urlFor('postgres');
    stopEmbedded = async () => {
      await embedded.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    };
  }
  const name = `portal_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = connectDatabase(url.toString(), { max: 10 });
  try {
    await runMigrations(handle.pool);
    const db = handle.db;
    const user = await createUser(db, { firstName: 'Bench', lastName: 'Admin' });
    const toc = await createProject(db, { name: 'TOC', activeApps: ['policy_management'] });
    const search = await createProject(db, { name: 'Search', activeApps: ['policy_management'] });
    for (const project of [toc, search]) {
      await addMember(db, project.id, user.id, 'admin');
      await setMainRole(db, project.id, user.id, 'policy_management', 'policy_admin');
    }

    // 5,000 numbered documents: 50 chapters x 10 sections x (1 + 9 subsections).
    await handle.pool.query(
      `insert into policy_documents (project_id, number, title, status, search_text)
       select $1, c || case when s = 0 then '' else '.' || s end || case when t = 0 then '' else '.' || t end,
              'Policy ' || c || '.' || s || '.' || t, 'published', ''
         from generate_series(1, 55) c, generate_series(0, 9) s, generate_series(0, 9) t
        where not (s = 0 and t > 0)
        limit 5000`,
      [toc.id],
    );
    const [{ n: tocCount }] = (
      await handle.pool.query('select count(*)::int as n from policy_documents where project_id = $1', [toc.id])
    ).rows;

    // 10,000 documents of about 400 words each from a clinical vocabulary.
    await handle.pool.query(
      `insert into policy_documents (project_id, number, title, status, search_text)
       select $1, null, 'Policy on ' || w[1 + (g * 7) % array_length(w, 1)] || ' and ' || w[1 + (g * 13) % array_length(w, 1)],
              'published',
              (select string_agg(w[1 + ((g * 31 + i * 17 + (i * i) % 23) % array_length(w, 1))], ' ')
                 from generate_series(1, 400) i)
         from generate_series(1, 10000) g, (select $2::text[] as w) words`,
      [search.id, WORDS],
    );
    await handle.pool.query('analyze policy_documents');

    const config = loadConfig({
      DATABASE_URL: url.toString(),
      DATA_DIR: path.join(os.tmpdir(), 'portal-bench-data'),
      LOG_LEVEL: 'silent',
      CAPTCHA_PROVIDER: 'off',
    });
    const app = await buildApp({ config, database: handle, appKey: Buffer.alloc(32, 7), mailer: createMailbox() });
    await app.ready();
    const agent = createAgent(app);
    const login = await agent.login(user.email, TEST_PASSWORD);
    if (login.statusCode !== 200) throw new Error(`sign-in failed: ${login.body}`);

    const measure = async (urlFor: (i: number) => string) => {
      const times: number[] = [];
      for (let i = 0; i < RUNS + 10; i++) {
        const start = performance.now();
        const answer = await agent.get(urlFor(i));
        const elapsed = performance.now() - start;
        if (answer.statusCode !== 200) throw new Error(`${urlFor(i)}: ${answer.statusCode} ${answer.body}`);
        if (i >= 10) times.push(elapsed); // the first ten warm caches and plans
      }
      return { p50: percentile(times, 50), p95: percentile(times, 95) };
    };

    const tocTimes = await measure(() => `/api/projects/${toc.id}/policy-management/documents`);
    const searchTimes = await measure(
      (i) =>
        `/api/projects/${search.id}/policy-management/search?q=${encodeURIComponent(WORDS[(i * 7) % WORDS.length]!)}`,
    );
    const phrase = await measure(
      (i) =>
        `/api/projects/${search.id}/policy-management/search?q=${encodeURIComponent(`${WORDS[i % WORDS.length]} ${WORDS[(i * 3 + 1) % WORDS.length]}`)}`,
    );
    const line = (label: string, t: { p50: number; p95: number }, target: number) =>
      `${label.padEnd(44)} p50 ${t.p50.toFixed(1).padStart(6)} ms  p95 ${t.p95.toFixed(1).padStart(6)} ms  ` +
      `(target p95 < ${target} ms: ${(t.p95 / target).toFixed(2)} of it) ${t.p95 < target ? 'OK' : 'OVER'}`;
    console.log(`runs per call: ${RUNS}; ${os.cpus().length} CPUs`);
    console.log(line(`TOC: GET documents (${tocCount} documents)`, tocTimes, 100));
    console.log(line('search, one word (10,000 documents)', searchTimes, 50));
    console.log(line('search, two words (10,000 documents)', phrase, 50));
    await app.close();
    process.exitCode = tocTimes.p95 < 100 && searchTimes.p95 < 50 && phrase.p95 < 50 ? 0 : 1;
  } finally {
    await handle.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    await stopEmbedded?.();
  }
}

await main();
