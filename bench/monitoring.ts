// npx tsx bench/monitoring.ts: the monitoring page tree at the size of a large programme (issue 8), through the real
// routes (fastify.inject) on a real PostgreSQL. Every call computes the reader's access to every page (grants
// inherited down the tree, restricted branches), so the figures cover page access too.
//   - GET .../pages with 2,020 pages (20 domains x 10 programmes x 9 indicators): target p95 < 100 ms, for a
//     monitoring admin and for a viewer whose roles hold grants and who cannot see the restricted branches
//   - GET .../pages/{id} of an indicator, as the viewer: target p95 < 100 ms
// Uses BENCH_DATABASE_URL or an embedded PostgreSQL in a temporary folder. Creates and drops its own database.
import os from 'node:os';
import { addMember, createProject, createUser, setMainRole } from '../packages/server/test/factories.js';
import { benchApp, line, measure, RUNS, withBenchDatabase } from './harness.js';

async function main() {
  await withBenchDatabase(async (handle, url) => {
    const db = handle.db;
    const project = await createProject(db, { name: 'Programme', activeApps: ['monitoring'] });
    const admin = await createUser(db, { firstName: 'Bench', lastName: 'Admin' });
    const viewer = await createUser(db, { firstName: 'Bench', lastName: 'Viewer' });
    await addMember(db, project.id, admin.id, 'admin');
    await addMember(db, project.id, viewer.id, 'simple');
    await setMainRole(db, project.id, admin.id, 'monitoring', 'monitoring_admin');
    await setMainRole(db, project.id, viewer.id, 'monitoring', 'viewer');
    const q = (sql: string, params: unknown[] = []) => handle.pool.query(sql, params);

    await q(
      `insert into mon_page_levels (project_id, depth, name, icon)
       values ($1, 1, 'Domain', 'folder'), ($1, 2, 'Programme', 'layers'), ($1, 3, 'Indicator', 'chart')`,
      [project.id],
    );
    // The tree, numbered as automatic numbering would: every tenth programme is restricted.
    await q(
      `insert into mon_pages (project_id, parent_id, position, depth, number, title, status)
       select $1, null, d - 1, 1, d::text, 'Domain ' || d, 'published' from generate_series(1, 20) d`,
      [project.id],
    );
    await q(
      `insert into mon_pages (project_id, parent_id, position, depth, number, title, status, restricted)
       select $1, p.id, g - 1, 2, p.number || '.' || g, 'Programme ' || p.number || '.' || g, 'published', g = 10
         from mon_pages p, generate_series(1, 10) g where p.project_id = $1 and p.depth = 1`,
      [project.id],
    );
    await q(
      `insert into mon_pages (project_id, parent_id, position, depth, number, title, status)
       select $1, p.id, g - 1, 3, p.number || '.' || g, 'Indicator ' || p.number || '.' || g, 'published'
         from mon_pages p, generate_series(1, 9) g where p.project_id = $1 and p.depth = 2`,
      [project.id],
    );
    // Three committees; the viewer sits on two; grants on every domain and on half the restricted programmes.
    await q(`insert into mon_roles (project_id, name) select $1, 'Committee ' || g from generate_series(1, 3) g`, [
      project.id,
    ]);
    await q(
      `insert into mon_role_members (project_id, role_id, user_id)
       select $1, id, $2 from mon_roles where project_id = $1 and name in ('Committee 1', 'Committee 2')`,
      [project.id, viewer.id],
    );
    await q(
      `insert into mon_page_permissions (project_id, page_id, role_id, level)
       select $1, p.id, r.id, 'view'
         from mon_pages p join mon_roles r on r.project_id = p.project_id
        where p.project_id = $1 and (p.depth = 1 or (p.restricted and p.parent_id % 2 = 0))`,
      [project.id],
    );
    await q('analyze');
    const [{ n: pages }] = (await q('select count(*)::int as n from mon_pages where project_id = $1', [project.id]))
      .rows;
    const [{ id: indicator }] = (
      await q(`select id from mon_pages where project_id = $1 and number = '7.3.4'`, [project.id])
    ).rows;

    const { app, signIn } = await benchApp(handle, url);
    const asAdmin = await signIn(admin.email);
    const asViewer = await signIn(viewer.email);
    const base = `/api/projects/${project.id}/monitoring`;
    const visible = (await asViewer.get(`${base}/pages`)).json().pages.length;
    const treeAdmin = await measure(asAdmin, () => `${base}/pages`);
    const treeViewer = await measure(asViewer, () => `${base}/pages`);
    const page = await measure(asViewer, () => `${base}/pages/${indicator}`);
    console.log(`runs per call: ${RUNS}; ${os.cpus().length} CPUs`);
    console.log(line(`GET pages, admin (${pages} pages)`, treeAdmin, 100));
    console.log(line(`GET pages, viewer (sees ${visible})`, treeViewer, 100));
    console.log(line('GET pages/{id} of an indicator, viewer', page, 100));
    await app.close();
    process.exitCode = treeAdmin.p95 < 100 && treeViewer.p95 < 100 && page.p95 < 100 ? 0 : 1;
  });
}

await main();
