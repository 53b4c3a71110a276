import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { StdElement, StdFramework } from '@portal/shared';
import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../../test/app.js';
import {
  agentsOf,
  createAssessment,
  readElement,
  reqIds,
  saveElement,
  standardsProject,
} from '../../../../test/standards-kit.js';
import { auditEvents, stdEvidence, stdFrameworks, stdMappings, stdNodes } from '../../../db/schema/index.js';
import { BUILT_IN_EDITIONS_FORBIDDEN } from '../../../policies/standards.js';
import { assessmentTree } from '../assessments.service.js';
import { readiness } from '../readiness.service.js';
import { parseEcfrPart } from './ecfr-xml.js';

/**
 * Loading an edition of 42 CFR 482 from the eCFR XML (docs/standards.md "Editions from the eCFR"): superadmins only,
 * once per date, audited; the crosswalk from the 2024 edition derived; an assessment upgraded through it keeps its
 * results, links and evidence under the new identifiers; paragraphs not yet in force are shown but not counted.
 */
const XML = readFileSync(new URL('./fixtures/ecfr-42-482-excerpt.xml', import.meta.url), 'utf8');

describe('eCFR editions', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  it('a superadmin loads an edition; an assessment upgrades to it with its results, links and evidence', async () => {
    const s = await standardsProject(db());
    const { admin, stdAdmin, superadmin } = await agentsOf(ctx, s, ['admin', 'stdAdmin', 'superadmin']);
    const frameworks = (await admin.get(`${s.base}/frameworks`)).json() as { frameworks: StdFramework[] };
    const cms2024 = frameworks.frameworks.find((f) => f.code === 'CMS-482' && f.edition === '2024')!;
    const old = await createAssessment(db(), admin, s.base, cms2024.id);
    // Executive responsibilities was 482.21(e) in the 2024 edition: assessed, with evidence.
    const execOld = old.reqs['§482.21(e)(1)']!;
    expect(
      (await saveElement(admin, s.base, execOld, { result: 'compliant', observation: 'Board minutes.' })).statusCode,
    ).toBe(200);
    const evidence = await admin.post(`${s.base}/req-assessments/${execOld}/evidence`, {
      kind: 'link',
      title: 'QAPI programme approved by the board',
      url: 'https://intranet.example.org/qapi/2026',
      note: '',
      expires_on: null,
    });
    expect(evidence.statusCode, evidence.body).toBe(201);

    // Only a superadmin: every project reads a built-in edition.
    const refused = await stdAdmin.post(`${s.base}/frameworks/ecfr`, { xml: XML });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(BUILT_IN_EDITIONS_FORBIDDEN);
    expect(
      await db().select().from(stdFrameworks).where(eq(stdFrameworks.edition, 'eCFR as of 2025-01-01')),
    ).toHaveLength(0);

    const loaded = await superadmin.post(`${s.base}/frameworks/ecfr`, { xml: XML });
    expect(loaded.statusCode, loaded.body).toBe(201);
    const today = ctx.app.clock.now().toISOString().slice(0, 10);
    const rows = parseEcfrPart(XML).rows;
    expect(loaded.json()).toMatchObject({
      code: 'CMS-482',
      edition: 'eCFR as of 2025-01-01',
      as_of: '2025-01-01',
      sections: 3,
      paragraphs: rows.filter((r) => r.type === 'standard' || r.type === 'element').length,
      in_force_later: rows.filter((r) => r.inForceFrom !== null && r.inForceFrom > today).length,
      previous_edition: '2024',
    });
    const editionId = loaded.json().framework_id as number;
    const mappings = await db().select().from(stdMappings).where(isNull(stdMappings.projectId));
    expect(mappings.length).toBe(loaded.json().mappings);
    expect(mappings.length).toBeGreaterThan(50);
    const [audit] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'standards.edition_loaded'), eq(auditEvents.subjectId, String(editionId))));
    expect(audit).toMatchObject({ actorUserId: s.people.superadmin.id, projectId: null });
    const stored = await db()
      .select()
      .from(stdNodes)
      .where(and(eq(stdNodes.frameworkId, editionId), eq(stdNodes.refId, '§482.21(e)')));
    expect(stored[0]).toMatchObject({
      heading: 'Standard: Maternal health QAPI activities.',
      inForceFrom: '2027-01-01',
    });

    // The same date again is a conflict; the other project sees the edition too.
    expect((await superadmin.post(`${s.base}/frameworks/ecfr`, { xml: XML })).statusCode).toBe(409);
    const outsider = await ctx.signedIn(s.people.outsider);
    const seen = (await outsider.get(`${s.otherBase}/frameworks`)).json() as { frameworks: StdFramework[] };
    expect(seen.frameworks.find((f) => f.id === editionId)).toMatchObject({ as_of: '2025-01-01', built_in: true });

    // Upgrade: the result, the owner's words and the evidence follow 482.21(e)(1) to (f)(1).
    const upgraded = await admin.post(`${s.base}/assessments/${old.id}/upgrade`, {
      framework_id: editionId,
      name: 'CMS readiness (eCFR 2025)',
    });
    expect(upgraded.statusCode, upgraded.body).toBe(201);
    const next = await reqIds(db(), upgraded.json().id);
    const exec = await readElement(admin, s.base, next['§482.21(f)(1)']!);
    expect(exec).toMatchObject({ result: 'compliant', status: 'in_review', observation: 'Board minutes.' });
    expect(exec.carried_from).toContain('§482.21(e)(1) (2024): Compliant, equal');
    expect(exec.evidence.map((item) => item.title)).toEqual(['QAPI programme approved by the board']);
    expect(exec.node).toMatchObject({ heading: null, in_force_from: null });
    expect(exec.node.source_note).toMatch(/89 FR 94591, Nov\. 27, 2024\]$/);
    // The old assessment keeps its evidence; the copy is its own row.
    expect(await db().select().from(stdEvidence).where(eq(stdEvidence.reqAssessmentId, execOld))).toHaveLength(1);

    // The new maternal QAPI standard is listed in force from 2027 and not counted before.
    const maternal = (await readElement(admin, s.base, next['§482.21(e)(1)']!)) as StdElement;
    expect(maternal.node.in_force_from).toBe('2027-01-01');
    // The days around 2027-01-01, through the services with the clock's day given (sessions stay on today's clock).
    const actor = {
      userId: s.people.admin.id,
      projectId: s.project.id,
      isSuperadmin: false,
      role: 'standards_admin' as const,
      ip: null,
      requestId: null,
    };
    const newId = upgraded.json().id as number;
    const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
    const on = async (day: string) => {
      const now = new Date(`${day}T12:00:00Z`);
      const tree = await assessmentTree(db(), actor, newId, { filter: 'all', search: '' }, now);
      const row = (ref: string) => tree.rows.find((r) => r.ref_id === ref)!;
      return {
        badge: row('§482.21(e)(1)').in_force_from,
        maternalCounted: total(row('§482.21(e)').counts),
        counted: total((await readiness(db(), actor, newId, now)).counts),
      };
    };
    const before = await on('2026-12-31');
    const after = await on('2027-01-01');
    expect(before).toMatchObject({ badge: '2027-01-01', maternalCounted: 0 });
    expect(after).toMatchObject({ badge: null, maternalCounted: 2 });
    // 482.21(b)(4)(i)-(iv), (e)(1)-(2) and 482.59(c)'s six elements come into force together.
    expect(after.counted - before.counted).toBe(12);
  });

  it('refuses what is not an eCFR part of 42 CFR 482, and dates it cannot trust', async () => {
    const s = await standardsProject(db());
    const { superadmin } = await agentsOf(ctx, s, ['superadmin']);
    const post = (body: Record<string, unknown>) => superadmin.post(`${s.base}/frameworks/ecfr`, body);
    const editions = async () =>
      (await db().select().from(stdFrameworks).where(isNull(stdFrameworks.projectId))).length;
    const before = await editions();
    const notXml = await post({ xml: 'ref_id,parent_ref_id\nA,' });
    expect(notXml.statusCode).toBe(400);
    expect(notXml.json().errors.file[0]).toMatch(/^This is not an eCFR part we can read/);
    const otherPart = await post({ xml: XML.replace('<DIV5 N="482"', '<DIV5 N="485"') });
    expect(otherPart.json().errors.file[0]).toBe(
      'The file holds 42 CFR Part 485; this portal loads 42 CFR Part 482 (hospitals).',
    );
    const undated = await post({ xml: XML.replace(/<AMDDATE>.*<\/AMDDATE>/, '') });
    expect(undated.json().errors.as_of[0]).toBe('Give the date of this eCFR text: the file does not say it.');
    const future = await post({ xml: XML, as_of: '2999-01-01' });
    expect(future.json().errors.as_of[0]).toBe('The date of the text cannot be in the future.');
    const badDate = await post({ xml: XML, as_of: '01/02/2025' });
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json().errors.as_of[0]).toBe('Give the date as YYYY-MM-DD.');
    expect(await editions()).toBe(before);
  });

  it('works from the command line: npm run ecfr:import -- <file> [--as-of]', () => {
    const cli = fileURLToPath(new URL('../../../cli/ecfr-import.ts', import.meta.url));
    const fixture = fileURLToPath(new URL('./fixtures/ecfr-42-482-excerpt.xml', import.meta.url));
    const run = (args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, DATABASE_URL: ctx.db.url },
      });
    const ok = run([fixture, '--as-of', '2024-12-31']);
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toContain('Loaded CMS-482 eCFR as of 2024-12-31: 3 sections');
    expect(ok.stdout).toMatch(/Crosswalk from edition 2024: \d+ mappings\./);
    expect(ok.status).toBe(0);
    const again = run([fixture, '--as-of', '2024-12-31']);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('CMS-482 eCFR as of 2024-12-31 is already loaded.');
    const usage = run([]);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('Usage: npm run ecfr:import');
  });
});
