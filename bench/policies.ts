// npx tsx bench/policies.ts: the policy table of contents and search at the sizes of issue 6, through the real
// routes (fastify.inject: the whole request pipeline without the network) on a real PostgreSQL.
//   - GET .../documents (what the TOC renders) with 5,000 documents in the project: target p95 < 100 ms
//   - GET .../search with 10,000 documents in the project: target p95 < 50 ms
// Uses BENCH_DATABASE_URL (a server URL, e.g. postgres://postgres@127.0.0.1:5432/postgres) or an embedded
// PostgreSQL in a temporary folder. Creates and drops its own database.
import os from 'node:os';
import { addMember, createProject, createUser, setMainRole } from '../packages/server/test/factories.js';
import { benchApp, line, measure, RUNS, withBenchDatabase } from './harness.js';

const WORDS = `patient nurse medication dose catheter infection hygiene hand isolation falls pressure injury wound
  consent identification handover escalation sepsis oxygen transfusion blood allergy pharmacy insulin heparin
  opioid restraint seclusion discharge admission triage emergency surgery anaesthesia sterile instrument laundry
  waste sharps needle glove gown mask visitor interpreter privacy record audit incident review policy procedure
  training competency supervision equipment alarm monitor bed chair mattress nutrition fluid pain sedation`
  .split(/\s+/)
  .filter(Boolean);

async function main() {
  await withBenchDatabase(async (handle, url) => {
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

    const { app, signIn } = await benchApp(handle, url);
    const agent = await signIn(user.email);

    const tocTimes = await measure(agent, () => `/api/projects/${toc.id}/policy-management/documents`);
    const searchTimes = await measure(
      agent,
      (i) =>
        `/api/projects/${search.id}/policy-management/search?q=${encodeURIComponent(WORDS[(i * 7) % WORDS.length]!)}`,
    );
    const phrase = await measure(
      agent,
      (i) =>
        `/api/projects/${search.id}/policy-management/search?q=${encodeURIComponent(`${WORDS[i % WORDS.length]} ${WORDS[(i * 3 + 1) % WORDS.length]}`)}`,
    );
    console.log(`runs per call: ${RUNS}; ${os.cpus().length} CPUs`);
    console.log(line(`TOC: GET documents (${tocCount} documents)`, tocTimes, 100));
    console.log(line('search, one word (10,000 documents)', searchTimes, 50));
    console.log(line('search, two words (10,000 documents)', phrase, 50));
    await app.close();
    process.exitCode = tocTimes.p95 < 100 && searchTimes.p95 < 50 && phrase.p95 < 50 ? 0 : 1;
  });
}

await main();
