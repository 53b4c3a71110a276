// A body that claims to be multipart but is not (issue 29): every upload route answers 400 with one plain message,
// never a 500. Each route is called as a user allowed to upload there, so the refusal is about the body alone.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '../../test/agent.js';
import { useTestApp } from '../../test/app.js';
import { samplingSetup } from '../../test/chart-review-sampling-kit.js';
import { addDataset } from '../../test/monitoring-data-kit.js';
import { insertPage, monitoringProject } from '../../test/monitoring-kit.js';
import { policyProject } from '../../test/policy-kit.js';
import { standardsSetup } from '../../test/standards-kit.js';
import { MALFORMED_UPLOAD } from '../lib/uploads.js';

const ctx = useTestApp();
const MODULES = fileURLToPath(new URL('../modules', import.meta.url));

/** The routes files that read multipart bodies (they register @fastify/multipart), relative to src/modules. */
function multipartRouteFiles(dir = MODULES): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return multipartRouteFiles(full);
    if (!entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) return [];
    return readFileSync(full, 'utf8').includes("from '@fastify/multipart'") ? [path.relative(MODULES, full)] : [];
  });
}

interface UploadRoute {
  label: string;
  /** The routes file that declares it. */
  file: string;
  agent: Agent;
  url: string;
}

describe('a malformed multipart body', () => {
  let routes: UploadRoute[] = [];
  beforeAll(async () => {
    const db = ctx.db.handle.db;
    const p = await policyProject(db);
    const policyAdmin = await ctx.signedIn(p.people.admin);
    const policyBase = `/api/projects/${p.project.id}/policy-management`;

    const m = await monitoringProject(db);
    const monitoringAdmin = await ctx.signedIn(m.people.admin);
    const viewer = await ctx.signedIn(m.people.viewer);
    const monitoringBase = `/api/projects/${m.project.id}/monitoring`;
    const dataset = await addDataset(db, m.project.id);
    const page = await insertPage(db, m.project.id, { title: 'Falls with injury', number: '1' });
    const filed = await viewer.post(`${monitoringBase}/requests`, {
      title: 'Falls by ward',
      purpose: 'Quarterly review of falls.',
      page_ids: [page.id],
      period_from: '2026-01-01',
      period_to: '2026-03-31',
      format: 'csv',
      patient_level: false,
      needed_by: '2099-01-01',
    });
    expect(filed.statusCode, filed.body).toBe(201);
    const requestId = (filed.json() as { id: number }).id;
    expect(
      (await monitoringAdmin.patch(`${monitoringBase}/requests/${requestId}`, { status: 'in_progress' })).statusCode,
    ).toBe(200);

    const cr = await samplingSetup(ctx);
    const st = await standardsSetup(ctx);

    routes = [
      {
        label: 'policy convert',
        file: 'policies/policies.routes.ts',
        agent: policyAdmin,
        url: `${policyBase}/documents/convert`,
      },
      {
        label: 'policy upload',
        file: 'policies/policies.routes.ts',
        agent: policyAdmin,
        url: `${policyBase}/documents/upload`,
      },
      {
        label: 'monitoring outline',
        file: 'monitoring/structure.routes.ts',
        agent: monitoringAdmin,
        url: `${monitoringBase}/pages/convert?preview=true`,
      },
      {
        label: 'dataset import',
        file: 'monitoring/datasets.routes.ts',
        agent: monitoringAdmin,
        url: `${monitoringBase}/datasets/${dataset.id}/imports`,
      },
      {
        label: 'data request file',
        file: 'monitoring/requests.routes.ts',
        agent: monitoringAdmin,
        url: `${monitoringBase}/requests/${requestId}/file`,
      },
      {
        label: 'chart review sample list',
        file: 'chart-review/sampling.routes.ts',
        agent: cr.lead,
        url: `${cr.base}/programs/${cr.program.id}/samples`,
      },
      {
        label: 'standards evidence file',
        file: 'standards/evidence.routes.ts',
        agent: st.admin,
        url: `${st.base}/req-assessments/${st.reqs['GOV.1.1']}/evidence/file`,
      },
    ];
  }, 60_000);

  it('is covered at every routes file that reads multipart', () => {
    expect([...new Set(routes.map((r) => r.file))].sort()).toEqual(multipartRouteFiles().sort());
  });

  const bodies: [string, string, string][] = [
    ['a form body under a multipart type', 'multipart/form-data; boundary=x', 'a=1'],
    ['no boundary at all', 'multipart/form-data', 'a=1'],
    [
      'a part cut off before its end',
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nab',
    ],
    ['a boundary longer than the parser takes', `multipart/form-data; boundary=${'b'.repeat(300)}`, 'a=1'],
  ];
  for (const [label, contentType, payload] of bodies) {
    it(`answers 400 "${MALFORMED_UPLOAD}" to ${label} on every upload route`, async () => {
      for (const route of routes) {
        const res = await route.agent.request({
          method: 'POST',
          url: route.url,
          payload,
          headers: { 'content-type': contentType },
        });
        expect(res.statusCode, `${route.label}: ${res.body}`).toBe(400);
        expect(res.json(), route.label).toMatchObject({ message: MALFORMED_UPLOAD });
      }
    });
  }
});
