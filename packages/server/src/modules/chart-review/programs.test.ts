import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import {
  chartReviewProject,
  chartReviewSnapshot,
  createTool,
  expectGuards,
  expectSwitchedOff,
  type GuardedCall,
  programInput,
  question,
} from '../../../test/chart-review-kit.js';
import { insertPage } from '../../../test/monitoring-kit.js';
import { auditEvents, crTools, monMeasures } from '../../db/schema/index.js';

describe('chart review programmes', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function measure(projectId: number, name: string) {
    const page = await insertPage(db(), projectId, { title: `${name} page` });
    const [row] = await db().insert(monMeasures).values({ projectId, pageId: page.id, name, type: 'rate' }).returning();
    return row!;
  }

  async function setup() {
    const s = await chartReviewProject(db());
    const lead = await ctx.signedIn(s.people.lead);
    const tool = await createTool(lead, s.base, 'Falls', [question('fall_risk'), question('care_plan')]);
    return { ...s, lead, tool };
  }

  async function createProgram(s: Awaited<ReturnType<typeof setup>>, overrides = {}) {
    const answer = await s.lead.post(`${s.base}/programs`, programInput(s.tool.id, overrides));
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json();
  }

  function calls(toolId: number, programId: number): GuardedCall[] {
    return [
      { method: 'GET', path: '/programs', viewer: true, namesRow: false },
      {
        method: 'POST',
        path: '/programs',
        body: programInput(toolId, { name: 'Another' }),
        viewer: false,
        namesRow: false,
      },
      { method: 'GET', path: `/programs/${programId}`, viewer: true, namesRow: true },
      {
        method: 'PUT',
        path: `/programs/${programId}`,
        body: programInput(toolId, { status: 'paused' }),
        viewer: false,
        namesRow: true,
      },
    ];
  }

  it('guards every call: 401, 403 without a role, 403 for the viewer on changes, 404 from elsewhere, 419', async () => {
    const s = await setup();
    const program = await createProgram(s);
    await expectGuards(ctx, s, calls(s.tool.id, program.id));
  });

  it('answers 404 to every call when chart review is switched off for the project', async () => {
    const s = await setup();
    const program = await createProgram(s);
    await expectSwitchedOff(ctx, s, calls(s.tool.id, program.id));
  });

  it('creates a programme as given, with the version in use, owner and measure; names are unique', async () => {
    const s = await setup();
    const falls = await measure(s.project.id, 'Falls audit compliance');
    const program = await createProgram(s, {
      units: ['Ward A', ' ward a ', 'Ward B', 'WARD B'],
      sampling: { method: 'percent', pct: 10, min: 5, max: 30, stratify_by_unit: true },
      grain: 'quarter',
      due_days: 21,
      irr_rate: 0.1,
      target: 0.95,
      owner_id: s.people.lead.id,
      status: 'paused',
      mon_measure_id: falls.id,
    });
    expect(program).toMatchObject({
      name: 'Falls prevention audit',
      tool_id: s.tool.id,
      pinned_version_id: null,
      units: ['Ward A', 'Ward B'],
      grain: 'quarter',
      sampling: { method: 'percent', pct: 10, min: 5, max: 30, stratify_by_unit: true },
      due_days: 21,
      irr_rate: 0.1,
      target: 0.95,
      owner_id: s.people.lead.id,
      status: 'paused',
      mon_measure_id: falls.id,
      tool: { id: s.tool.id, name: 'Falls' },
      version_in_use: { id: s.tool.versionId, version: 1 },
      owner: { id: s.people.lead.id, name: 'Leo Lead' },
      measure: { id: falls.id, name: 'Falls audit compliance' },
      abilities: { edit: true },
    });
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(event).toMatchObject({
      action: 'chart_review.program_created',
      projectId: s.project.id,
      actorUserId: s.people.lead.id,
      subjectType: 'cr_program',
      subjectId: String(program.id),
    });
    expect((await s.lead.get(`${s.base}/tools/${s.tool.id}`)).json().program_count).toBe(1);

    const before = await chartReviewSnapshot(db());
    const taken = await s.lead.post(`${s.base}/programs`, programInput(s.tool.id, { name: 'FALLS prevention AUDIT' }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().errors).toEqual({ name: ['A programme with this name exists.'] });
    expect(await chartReviewSnapshot(db())).toEqual(before);

    // A superadmin creates too; the list is by name; the viewer reads without abilities.
    const superadmin = await ctx.signedIn(s.people.superadmin);
    const bySuper = await superadmin.post(`${s.base}/programs`, programInput(s.tool.id, { name: 'Antibiotic timing' }));
    expect(bySuper.statusCode, bySuper.body).toBe(201);
    const viewer = await ctx.signedIn(s.people.viewer);
    const list = await viewer.get(`${s.base}/programs`);
    expect(list.json().abilities).toEqual({ create: false });
    expect(list.json().programs.map((p: { name: string; abilities: object }) => [p.name, p.abilities])).toEqual([
      ['Antibiotic timing', { edit: false }],
      ['Falls prevention audit', { edit: false }],
    ]);
    expect((await viewer.get(`${s.base}/programs/${program.id}`)).json()).toEqual({
      ...program,
      abilities: { edit: false },
    });
    expect((await s.lead.get(`${s.base}/programs/999999`)).statusCode).toBe(404);
  });

  it('refuses references the programme may not hold, all at once, and changes nothing', async () => {
    const s = await setup();
    const outsider = await ctx.signedIn(s.people.outsider);
    const theirTool = await createTool(outsider, s.otherBase, 'Theirs', [question('a')]);
    const theirMeasure = await measure(s.other.id, 'Their measure');
    const gone = await measure(s.project.id, 'Deleted measure');
    await db().update(monMeasures).set({ deletedAt: new Date() }).where(eq(monMeasures.id, gone.id));
    const retired = await createTool(s.lead, s.base, 'Old falls', [question('a')]);
    await s.lead.put(`${s.base}/tools/${retired.id}`, { name: 'Old falls', purpose: '', retired: true });
    const draftOnly = await createTool(s.lead, s.base, 'Draft only');
    const before = await chartReviewSnapshot(db());

    const expectRefused = async (overrides: object, errors: Record<string, string[]>) => {
      const answer = await s.lead.post(`${s.base}/programs`, programInput(s.tool.id, overrides));
      expect(answer.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(answer.json().errors, JSON.stringify(overrides)).toEqual(errors);
    };
    const inUse = ['Choose a tool that is in use.'];
    const published = ['Choose a published version of this tool.'];
    const owner = ['The owner must be a programme lead or chart review admin.'];
    const measureOf = ['Choose a measure of this project.'];
    await expectRefused({ tool_id: theirTool.id }, { tool_id: inUse });
    await expectRefused({ tool_id: retired.id }, { tool_id: inUse });
    await expectRefused({ tool_id: 999999 }, { tool_id: inUse });
    await expectRefused(
      { tool_id: draftOnly.id, pinned_version_id: draftOnly.versionId },
      { pinned_version_id: published },
    );
    await expectRefused({ pinned_version_id: retired.versionId }, { pinned_version_id: published });
    await expectRefused({ pinned_version_id: theirTool.versionId }, { pinned_version_id: published });
    await expectRefused({ owner_id: s.people.reviewer.id }, { owner_id: owner });
    await expectRefused({ owner_id: s.people.outsider.id }, { owner_id: owner });
    await expectRefused({ mon_measure_id: theirMeasure.id }, { mon_measure_id: measureOf });
    await expectRefused({ mon_measure_id: gone.id }, { mon_measure_id: measureOf });
    await expectRefused(
      { tool_id: retired.id, owner_id: s.people.viewer.id, mon_measure_id: gone.id },
      { tool_id: inUse, owner_id: owner, mon_measure_id: measureOf },
    );

    const schema = await s.lead.post(`${s.base}/programs`, {
      ...programInput(s.tool.id),
      name: ' ',
      units: ['Ward A', ' '],
      sampling: { method: 'percent', pct: 0 },
      due_days: 0,
      irr_rate: 2,
      target: -0.1,
      grain: 'week',
    });
    expect(schema.statusCode).toBe(400);
    expect(schema.json().errors).toMatchObject({
      name: ['Enter a name.'],
      'units.1': ['A unit name cannot be empty.'],
      'sampling.pct': ['The percentage is a number above 0 and at most 100.'],
      due_days: ['Reviews are due 1 to 365 days after assignment.'],
      irr_rate: ['The second-review share is from 0 to 1.'],
      target: ['The target is from 0 to 1.'],
    });
    expect(schema.json().errors.grain).toHaveLength(1);
    expect(await chartReviewSnapshot(db())).toEqual(before);
  });

  it('updates a programme: pins a version, keeps a tool retired since, audits the changed fields', async () => {
    const s = await setup();
    const program = await createProgram(s);
    await createProgram(s, { name: 'Second' });
    // Version 2 published: the programme follows it unless pinned.
    const v2 = (await s.lead.post(`${s.base}/tools/${s.tool.id}/versions`)).json();
    await s.lead.post(`${s.base}/tool-versions/${v2.id}/publish`, { note: 'Same questions, new wording.' });
    expect((await s.lead.get(`${s.base}/programs/${program.id}`)).json().version_in_use).toEqual({
      id: v2.id,
      version: 2,
    });
    const pinned = await s.lead.put(
      `${s.base}/programs/${program.id}`,
      programInput(s.tool.id, { pinned_version_id: s.tool.versionId, status: 'paused', owner_id: s.people.admin.id }),
    );
    expect(pinned.statusCode, pinned.body).toBe(200);
    expect(pinned.json()).toMatchObject({
      pinned_version_id: s.tool.versionId,
      version_in_use: { id: s.tool.versionId, version: 1 },
      status: 'paused',
      owner: { id: s.people.admin.id, name: 'Ada Admin' },
    });
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(event).toMatchObject({
      action: 'chart_review.program_updated',
      subjectId: String(program.id),
      data: { fields: ['pinned_version_id', 'owner_id', 'status'], status: 'paused' },
    });

    // The tool is retired later: the programme keeps it and can still be closed, but cannot move to another
    // retired tool.
    await db().update(crTools).set({ retiredAt: new Date() }).where(eq(crTools.id, s.tool.id));
    const closed = await s.lead.put(`${s.base}/programs/${program.id}`, programInput(s.tool.id, { status: 'closed' }));
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().status).toBe('closed');
    const other = await createTool(s.lead, s.base, 'Sepsis', [question('lactate')]);
    await s.lead.put(`${s.base}/tools/${other.id}`, { name: 'Sepsis', purpose: '', retired: true });
    const moved = await s.lead.put(`${s.base}/programs/${program.id}`, programInput(other.id));
    expect(moved.statusCode).toBe(400);
    expect(moved.json().errors).toEqual({ tool_id: ['Choose a tool that is in use.'] });

    // Saving what is there changes nothing and records nothing.
    const before = await chartReviewSnapshot(db());
    const same = await s.lead.put(`${s.base}/programs/${program.id}`, programInput(s.tool.id, { status: 'closed' }));
    expect(same.statusCode).toBe(200);
    expect(await chartReviewSnapshot(db())).toEqual(before);

    // A name taken by another programme of the project.
    const taken = await s.lead.put(
      `${s.base}/programs/${program.id}`,
      programInput(s.tool.id, { name: 'SECOND', status: 'closed' }),
    );
    expect(taken.statusCode).toBe(409);
    expect(taken.json().errors).toEqual({ name: ['A programme with this name exists.'] });
    expect((await s.lead.put(`${s.base}/programs/999999`, programInput(s.tool.id))).statusCode).toBe(404);
  });

  it('shows no version in use before the tool is published, and drops the link to a deleted measure', async () => {
    const s = await setup();
    const draftOnly = await createTool(s.lead, s.base, 'Draft only');
    const falls = await measure(s.project.id, 'Falls');
    const program = await createProgram(s, { tool_id: draftOnly.id, mon_measure_id: falls.id });
    expect(program.version_in_use).toBeNull();
    await db().update(monMeasures).set({ deletedAt: new Date() }).where(eq(monMeasures.id, falls.id));
    const shown = (await s.lead.get(`${s.base}/programs/${program.id}`)).json();
    expect(shown).toMatchObject({ mon_measure_id: null, measure: null });
    // Saving what is shown clears the stored link.
    const {
      id: _id,
      tool: _tool,
      version_in_use: _v,
      owner: _o,
      measure: _m,
      updated_at: _u,
      abilities: _a,
      ...input
    } = shown;
    const saved = await s.lead.put(`${s.base}/programs/${program.id}`, input);
    expect(saved.statusCode, saved.body).toBe(200);
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(event?.data).toMatchObject({ fields: ['mon_measure_id'] });
  });
});
