import type { StdFramework } from '@portal/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import {
  agentsOf,
  assessmentInput,
  auditOf,
  createAssessment,
  importFramework,
  importInput,
  KIT_CSV,
  readElement,
  standardsProject,
  standardsSnapshot,
} from '../../../test/standards-kit.js';
import { stdFrameworks, stdNodes, stdReqAssessments } from '../../db/schema/index.js';
import { CMS_HOSPITAL_COP } from './frameworks.service.js';

/** The built-in CMS framework, imports from CSV and the licence rule (docs/standards.md "Frameworks"). */
describe('standards frameworks', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  /** The kit's CSV without its text column (identifiers and titles only). */
  const withoutText = KIT_CSV.split('\n')
    .map((line) => line.split(',').slice(0, 4).join(','))
    .join('\n');

  it('lists the built-in CMS framework for every project: public domain, its chapters, its text in the panel', async () => {
    const s = await standardsProject(db());
    const viewer = await ctx.signedIn(s.people.viewer);
    const listed = await viewer.get(`${s.base}/frameworks`);
    expect(listed.statusCode, listed.body).toBe(200);
    const cms = (listed.json().frameworks as StdFramework[]).find((f) => f.code === CMS_HOSPITAL_COP.code);
    expect(cms).toMatchObject({
      code: 'CMS-482',
      edition: CMS_HOSPITAL_COP.edition,
      publisher: CMS_HOSPITAL_COP.publisher,
      text_policy: 'public_domain',
      built_in: true,
      public_url: CMS_HOSPITAL_COP.publicUrl,
    });
    expect(cms!.licence_note).toContain('public domain');
    expect(cms!.chapters.length).toBeGreaterThanOrEqual(3);
    expect(cms!.assessable_count).toBeGreaterThan(cms!.chapters.length);
    expect(cms!.node_count).toBeGreaterThan(cms!.assessable_count);
    // Every chapter counts the elements below it; together they are every element.
    expect(cms!.chapters.reduce((sum, chapter) => sum + chapter.assessable_count, 0)).toBe(cms!.assessable_count);
    for (const chapter of cms!.chapters) expect(chapter.ref_id, chapter.title).not.toBe('');

    // Stored once, without a project, whoever asks and however often.
    const outsider = await ctx.signedIn(s.people.outsider);
    const there = await outsider.get(`${s.otherBase}/frameworks`);
    expect(there.statusCode).toBe(200);
    expect((there.json().frameworks as StdFramework[]).find((f) => f.code === 'CMS-482')).toEqual(cms);
    const stored = await db()
      .select()
      .from(stdFrameworks)
      .where(and(eq(stdFrameworks.code, 'CMS-482'), isNull(stdFrameworks.projectId)));
    expect(stored).toHaveLength(1);

    // An assessment of it has one row per element; the panel shows the regulation's text.
    const admin = await ctx.signedIn(s.people.admin);
    const assessment = await createAssessment(db(), admin, s.base, cms!.id, { name: 'CMS readiness' });
    expect(Object.keys(assessment.reqs)).toHaveLength(cms!.assessable_count);
    const [withText] = await db()
      .select({ req: stdReqAssessments.id, text: stdNodes.officialText, refId: stdNodes.refId })
      .from(stdReqAssessments)
      .innerJoin(stdNodes, eq(stdNodes.id, stdReqAssessments.nodeId))
      .where(and(eq(stdReqAssessments.assessmentId, assessment.id), sql`${stdNodes.officialText} is not null`))
      .limit(1);
    expect(withText, 'a CMS element with its regulation text').toBeDefined();
    const panel = await readElement(viewer, s.base, withText!.req);
    expect(panel.framework).toMatchObject({ id: cms!.id, text_policy: 'public_domain' });
    expect(panel.node.ref_id).toBe(withText!.refId);
    expect(panel.node.official_text).toBe(withText!.text);
    expect(panel.node.official_text!.length).toBeGreaterThan(10);
    expect(panel.node.public_url).toBe(CMS_HOSPITAL_COP.publicUrl);
    expect(panel.node.path.length).toBeGreaterThan(0);

    // The CMS chapters can be marked not applicable in the wizard.
    const chapter = cms!.chapters.find((c) => c.assessable_count > 0)!;
    const second = await createAssessment(db(), admin, s.base, cms!.id, {
      name: 'CMS without one chapter',
      not_applicable: [{ node_id: chapter.id, reason: 'We do not offer this service.' }],
    });
    const rows = await db()
      .select({ result: stdReqAssessments.result })
      .from(stdReqAssessments)
      .where(eq(stdReqAssessments.assessmentId, second.id));
    expect(rows.filter((r) => r.result === 'not_applicable')).toHaveLength(chapter.assessable_count);
  });

  it("imports a facility's own framework with its text (tenant_text), audited; the panel shows the text", async () => {
    const s = await standardsProject(db());
    const admin = await ctx.signedIn(s.people.admin);
    const { framework, nodes } = await importFramework(db(), admin, s.base);
    expect(framework).toMatchObject({
      code: 'STATE-QS',
      name: 'State quality standards',
      publisher: 'State Department of Health',
      edition: '2026',
      text_policy: 'tenant_text',
      public_url: 'https://health.example.gov/standards',
      built_in: false,
      node_count: 12,
      assessable_count: 6,
    });
    expect(framework.chapters.map((c) => [c.ref_id, c.title, c.assessable_count])).toEqual([
      ['GOV', 'Governance', 3],
      ['IC', 'Infection control', 2],
      ['OB', 'Obstetrics', 1],
    ]);
    const stored = await db().select().from(stdNodes).where(eq(stdNodes.frameworkId, framework.id));
    const byRef = new Map(stored.map((n) => [n.refId, n]));
    expect(byRef.get('GOV.1.1')).toMatchObject({
      parentId: nodes['GOV.1'],
      nodeType: 'element',
      depth: 2,
      assessable: true,
      officialText: 'The board meets at least once a quarter.',
    });
    expect(byRef.get('GOV.1')).toMatchObject({ parentId: nodes.GOV, assessable: false, depth: 1 });
    expect(byRef.get('IC.1.2')!.officialText).toBeNull();
    expect(byRef.get('OB.1')).toMatchObject({ assessable: true, depth: 1 });
    expect(stored.sort((a, b) => a.position - b.position).map((n) => n.refId)).toEqual(
      KIT_CSV.split('\n')
        .slice(1)
        .map((line) => line.split(',')[0]),
    );
    const [event] = await auditOf(db(), s.project.id, 'standards.framework_imported');
    expect(event).toMatchObject({
      actorUserId: s.people.admin.id,
      subjectType: 'std_framework',
      subjectId: String(framework.id),
      data: { code: 'STATE-QS', edition: '2026', text_policy: 'tenant_text', rows: 12 },
    });
    // Listed for the project, with the built-in one.
    const listed = (await admin.get(`${s.base}/frameworks`)).json().frameworks as StdFramework[];
    expect(listed.find((f) => f.id === framework.id)).toEqual(framework);
    expect(listed.some((f) => f.built_in)).toBe(true);

    const assessment = await createAssessment(db(), admin, s.base, framework.id);
    const panel = await readElement(admin, s.base, assessment.reqs['GOV.1.1']!);
    expect(panel.node).toMatchObject({
      ref_id: 'GOV.1.1',
      title: 'Board meets quarterly',
      node_type: 'element',
      official_text: 'The board meets at least once a quarter.',
      public_url: 'https://health.example.gov/standards',
      path: [
        { ref_id: 'GOV', title: 'Governance' },
        { ref_id: 'GOV.1', title: 'Governing body' },
      ],
    });
    expect(panel.framework).toMatchObject({ id: framework.id, text_policy: 'tenant_text' });
  });

  it('lets only standards admins import; a standards admin without project admin rights may', async () => {
    const s = await standardsProject(db());
    const agents = await agentsOf(ctx, s, ['lead', 'owner', 'contributor', 'assessor', 'stdAdmin']);
    await agents.lead.get(`${s.base}/frameworks`); // the built-in framework is in before the snapshot
    const before = await standardsSnapshot(db());
    for (const who of ['lead', 'owner', 'contributor', 'assessor'] as const) {
      const agent = agents[who];
      const refused = await agent.post(`${s.base}/frameworks/import`, importInput());
      expect(refused.statusCode, who).toBe(403);
      expect(refused.json().message).toBe('Your standards role does not allow this.');
    }
    expect(await standardsSnapshot(db())).toEqual(before);
    const { framework } = await importFramework(db(), agents.stdAdmin, s.base);
    expect(framework.code).toBe('STATE-QS');
  });

  it('refuses text in an identifiers-only import, naming the rows, and stores nothing', async () => {
    const s = await standardsProject(db());
    const admin = await ctx.signedIn(s.people.admin);
    await admin.get(`${s.base}/frameworks`); // the built-in framework is in before the snapshot
    const before = await standardsSnapshot(db());
    const answer = await admin.post(
      `${s.base}/frameworks/import`,
      importInput({ code: 'TJC-HAP', publisher: 'The Joint Commission', text_policy: 'identifiers_only' }),
    );
    expect(answer.statusCode, answer.body).toBe(400);
    const message = answer.json().message as string;
    expect(message).toContain('keeps identifiers and titles only');
    // Rows 3, 4, 5, 7, 10 and 13 hold text (row 1 is the header).
    expect(message).toContain('(Text on rows 3, 4, 5, 7, 10 and 1 more.)');
    expect(answer.json().errors.csv).toEqual([message]);
    expect(await standardsSnapshot(db())).toEqual(before);

    // The same rule for a framework that is not copyrighted but chose identifiers only.
    const local = await admin.post(
      `${s.base}/frameworks/import`,
      importInput({
        text_policy: 'identifiers_only',
        csv: 'ref_id,parent_ref_id,type,title,text\nA,,chapter,A,Some text',
      }),
    );
    expect(local.statusCode).toBe(400);
    expect(local.json().message).toContain('(Text on rows 2.)');
    expect(await standardsSnapshot(db())).toEqual(before);
  });

  it('refuses tenant text for a copyrighted publisher whatever the form says', async () => {
    const s = await standardsProject(db());
    const admin = await ctx.signedIn(s.people.admin);
    await admin.get(`${s.base}/frameworks`);
    const before = await standardsSnapshot(db());
    for (const code of ['TJC-HAP', 'tjc-cah', 'DNV-NIAHO', 'JCAHO.2026', 'TJC_HAP', 'DNV_NIAHO']) {
      const answer = await admin.post(
        `${s.base}/frameworks/import`,
        importInput({ code, text_policy: 'tenant_text', csv: withoutText }),
      );
      expect(answer.statusCode, `${code}: ${answer.body}`).toBe(400);
      expect(answer.json().errors.text_policy, code).toHaveLength(1);
      expect(answer.json().errors.text_policy[0]).toContain('copyrighted');
    }
    expect(await standardsSnapshot(db())).toEqual(before);
  });

  it('imports a copyrighted framework with identifiers only; its panels never show official text', async () => {
    const s = await standardsProject(db());
    const admin = await ctx.signedIn(s.people.admin);
    // An empty text column is accepted (nothing to keep); so is a file without it.
    const blankText = `${withoutText.replace(/\n/g, ',\n')},`.replace('title,', 'title,text');
    const { framework } = await importFramework(db(), admin, s.base, {
      code: 'TJC-HAP',
      name: 'Hospital accreditation program',
      publisher: 'The Joint Commission',
      text_policy: 'identifiers_only',
      csv: blankText,
    });
    expect(framework).toMatchObject({ text_policy: 'identifiers_only', node_count: 12, assessable_count: 6 });
    expect(framework.licence_note).toContain('Identifiers and titles only');
    const second = await importFramework(db(), admin, s.base, {
      code: 'TJC-HAP',
      edition: '2027',
      text_policy: 'identifiers_only',
      csv: withoutText,
    });
    const stored = await db().select().from(stdNodes).where(eq(stdNodes.frameworkId, framework.id));
    expect(stored.every((n) => n.officialText === null)).toBe(true);
    expect(second.framework.edition).toBe('2027');

    const assessment = await createAssessment(db(), admin, s.base, framework.id);
    const id = assessment.reqs['GOV.1.1']!;
    expect((await readElement(admin, s.base, id)).node.official_text).toBeNull();
    // Even when a row holds text (a bad restore, a manual fix), the panel does not show it.
    await db()
      .update(stdNodes)
      .set({ officialText: 'Copyrighted element text.' })
      .where(eq(stdNodes.frameworkId, framework.id));
    const panel = await readElement(admin, s.base, id);
    expect(panel.node.official_text).toBeNull();
    expect(panel.framework.text_policy).toBe('identifiers_only');
    expect(JSON.stringify(panel)).not.toContain('Copyrighted element text.');
  });

  it('refuses CSV errors with 400 naming the rows, and stores nothing', async () => {
    const s = await standardsProject(db());
    const admin = await ctx.signedIn(s.people.admin);
    await admin.get(`${s.base}/frameworks`);
    const before = await standardsSnapshot(db());
    const cases: [string, string, string][] = [
      [
        'missing columns',
        'ref_id,title\nA,Governance',
        'The header needs the columns ref_id, parent_ref_id, type and title (missing: parent_ref_id, type).',
      ],
      [
        'duplicate ref_id',
        'ref_id,parent_ref_id,type,title\nA,,chapter,One\nA.1,A,element,Two\nA.1,A,element,Three',
        'A ref_id appears twice (rows 4).',
      ],
      [
        'parent after child',
        'ref_id,parent_ref_id,type,title\nA.1,A,element,Child\nA,,chapter,Parent',
        'A parent_ref_id is not on an earlier row (rows 2).',
      ],
      [
        'bad type',
        'ref_id,parent_ref_id,type,title\nA,,chapter,One\nA.1,A,paragraph,Two\nA.2,A,clause,Three',
        'A type is not one of chapter, section, condition, standard, element, ep, tag, goal (rows 3, 4).',
      ],
      ['no rows', 'ref_id,parent_ref_id,type,title\n', 'The file has a header but no rows.'],
      ['no title', 'ref_id,parent_ref_id,type,title\nA,,chapter,', 'A row has no title (rows 2).'],
    ];
    for (const [label, csv, message] of cases) {
      const answer = await admin.post(`${s.base}/frameworks/import`, importInput({ csv }));
      expect(answer.statusCode, `${label}: ${answer.body}`).toBe(400);
      expect(answer.json().message, label).toBe(message);
      expect(answer.json().errors.csv, label).toContain(message);
    }
    // Several problems at once: each message lists its rows.
    const many = await admin.post(
      `${s.base}/frameworks/import`,
      importInput({ csv: 'ref_id,parent_ref_id,type,title\nA,,chapter,One\nA,,chapter,Again\nB,,nonsense,Three' }),
    );
    expect(many.statusCode).toBe(400);
    expect(many.json().errors.csv).toEqual([
      'A ref_id appears twice (rows 3).',
      'A type is not one of chapter, section, condition, standard, element, ep, tag, goal (rows 4).',
    ]);
    expect(await standardsSnapshot(db())).toEqual(before);
  });

  it('refuses the same code and edition twice (409) and keeps the first', async () => {
    const s = await standardsProject(db());
    const admin = await ctx.signedIn(s.people.admin);
    const { framework } = await importFramework(db(), admin, s.base);
    const before = await standardsSnapshot(db());
    const again = await admin.post(`${s.base}/frameworks/import`, importInput({ name: 'Renamed' }));
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().message).toBe('This project already has STATE-QS edition 2026.');
    expect(again.json().errors.edition).toEqual(['This project already has STATE-QS edition 2026.']);
    expect(await standardsSnapshot(db())).toEqual(before);
    const kept = await db().select().from(stdFrameworks).where(eq(stdFrameworks.id, framework.id));
    expect(kept[0]!.name).toBe('State quality standards');
    // Another project may import the same code and edition: it gets its own copy.
    const outsider = await ctx.signedIn(s.people.outsider);
    const theirs = await importFramework(db(), outsider, s.otherBase);
    expect(theirs.framework.id).not.toBe(framework.id);
  });

  it("never shows a project's framework to another project", async () => {
    const s = await standardsProject(db());
    const admin = await ctx.signedIn(s.people.admin);
    const { framework, nodes } = await importFramework(db(), admin, s.base);
    const outsider = await ctx.signedIn(s.people.outsider);
    const listed = await outsider.get(`${s.otherBase}/frameworks`);
    expect(listed.statusCode).toBe(200);
    expect((listed.json().frameworks as StdFramework[]).map((f) => f.id)).not.toContain(framework.id);
    expect((listed.json().frameworks as StdFramework[]).every((f) => f.built_in)).toBe(true);
    const before = await standardsSnapshot(db());
    const created = await outsider.post(`${s.otherBase}/assessments`, assessmentInput(framework.id));
    expect(created.statusCode, created.body).toBe(404);
    expect(created.json().errors.framework_id).toEqual(['Choose a framework of this project.']);
    expect(await standardsSnapshot(db())).toEqual(before);
    // Nor can the other project's assessment of the built-in framework name this project's nodes.
    const cms = (listed.json().frameworks as StdFramework[])[0]!;
    const mixed = await outsider.post(
      `${s.otherBase}/assessments`,
      assessmentInput(cms.id, { not_applicable: [{ node_id: nodes.GOV, reason: 'Not ours.' }] }),
    );
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().errors['not_applicable.0.node_id']).toEqual(['Choose a part of this framework.']);
    expect(await standardsSnapshot(db())).toEqual(before);
  });
});
