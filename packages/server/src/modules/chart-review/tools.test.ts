import { and, asc, desc, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import {
  type ChartReviewSetup,
  chartReviewProject,
  chartReviewSnapshot,
  createTool,
  expectGuards,
  expectSwitchedOff,
  type GuardedCall,
  question,
} from '../../../test/chart-review-kit.js';
import { auditEvents, crQuestions, crToolVersions } from '../../db/schema/index.js';

describe('chart review tools and versions', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const s = await chartReviewProject(db());
    const lead = await ctx.signedIn(s.people.lead);
    return { ...s, lead };
  }
  type Setup = ChartReviewSetup & { lead: Awaited<ReturnType<typeof ctx.signedIn>> };

  /** The tool's actions in the audit log, oldest first. */
  async function actions(s: Setup) {
    const rows = await db()
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(and(eq(auditEvents.projectId, s.project.id), like(auditEvents.action, 'chart_review.%')))
      .orderBy(asc(auditEvents.id));
    return rows.map((row) => row.action);
  }

  async function saveQuestions(s: Setup, versionId: number, questions: unknown[]) {
    return s.lead.put(`${s.base}/tool-versions/${versionId}/questions`, { questions });
  }

  /** A tool with version 1 published and a draft version 2 (a copy). */
  async function toolWithDraft(s: Setup) {
    const tool = await createTool(s.lead, s.base, 'Falls', [question('fall_risk'), question('care_plan')]);
    const draft = await s.lead.post(`${s.base}/tools/${tool.id}/versions`);
    expect(draft.statusCode, draft.body).toBe(201);
    return { ...tool, draftId: draft.json().id as number };
  }

  function calls(tool: { id: number; versionId: number; draftId: number }): GuardedCall[] {
    return [
      { method: 'GET', path: '/tools', viewer: false, namesRow: false },
      {
        method: 'POST',
        path: '/tools',
        body: { name: 'Pressure ulcers', purpose: '' },
        viewer: false,
        namesRow: false,
      },
      { method: 'GET', path: `/tools/${tool.id}`, viewer: false, namesRow: true },
      {
        method: 'PUT',
        path: `/tools/${tool.id}`,
        body: { name: 'Renamed', purpose: '', retired: true },
        viewer: false,
        namesRow: true,
      },
      { method: 'POST', path: `/tools/${tool.id}/versions`, viewer: false, namesRow: true },
      { method: 'GET', path: `/tool-versions/${tool.versionId}`, viewer: false, namesRow: true },
      {
        method: 'PUT',
        path: `/tool-versions/${tool.draftId}/questions`,
        body: { questions: [question('only_one')] },
        viewer: false,
        namesRow: true,
      },
      {
        method: 'POST',
        path: `/tool-versions/${tool.draftId}/publish`,
        body: { note: 'Shorter' },
        viewer: false,
        namesRow: true,
      },
      { method: 'DELETE', path: `/tool-versions/${tool.draftId}`, viewer: false, namesRow: true },
    ];
  }

  it('guards every call: 401, 403 without a role and for the viewer, 404 from elsewhere, 419 without XSRF', async () => {
    const s = await setup();
    await expectGuards(ctx, s, calls(await toolWithDraft(s)));
  });

  it('answers 404 to every call when chart review is switched off for the project', async () => {
    const s = await setup();
    await expectSwitchedOff(ctx, s, calls(await toolWithDraft(s)));
  });

  it('creates a tool with an empty draft version 1; names are unique per project whatever their case', async () => {
    const s = await setup();
    const created = await s.lead.post(`${s.base}/tools`, { name: ' Falls ', purpose: 'Falls prevention' });
    expect(created.statusCode, created.body).toBe(201);
    const tool = created.json();
    expect(tool).toMatchObject({
      name: 'Falls',
      purpose: 'Falls prevention',
      retired: false,
      published: null,
      draft: { version: 1, status: 'draft', note: '', frozen: false, question_count: 0, published_by: null },
      program_count: 0,
      abilities: { edit: true },
    });
    expect(tool.versions).toEqual([tool.draft]);
    const version = await s.lead.get(`${s.base}/tool-versions/${tool.draft.id}`);
    expect(version.json()).toMatchObject({
      tool: { id: tool.id, name: 'Falls' },
      questions: [],
      abilities: { edit: true, publish: true, discard: false },
    });

    const before = await chartReviewSnapshot(db());
    const taken = await s.lead.post(`${s.base}/tools`, { name: 'fALLS', purpose: '' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({
      message: 'A tool with this name exists.',
      errors: { name: ['A tool with this name exists.'] },
    });
    const blank = await s.lead.post(`${s.base}/tools`, { name: '  ', purpose: '' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors.name).toEqual(['Enter a name.']);
    expect(await chartReviewSnapshot(db())).toEqual(before);

    // The same name in another project is fine; a superadmin creates tools too.
    const outsider = await ctx.signedIn(s.people.outsider);
    expect((await outsider.post(`${s.otherBase}/tools`, { name: 'Falls', purpose: '' })).statusCode).toBe(201);
    const superadmin = await ctx.signedIn(s.people.superadmin);
    expect((await superadmin.post(`${s.base}/tools`, { name: 'Antibiotics', purpose: '' })).statusCode).toBe(201);

    const list = await s.lead.get(`${s.base}/tools`);
    expect(list.json().abilities).toEqual({ create: true });
    expect(list.json().tools.map((t: { name: string }) => t.name)).toEqual(['Antibiotics', 'Falls']);
    expect(await actions(s)).toEqual(['chart_review.tool_created', 'chart_review.tool_created']);
    expect((await s.lead.get(`${s.base}/tools/999999`)).statusCode).toBe(404);
  });

  it('renames, retires and brings back a tool; retired tools are listed last and flagged', async () => {
    const s = await setup();
    const falls = await createTool(s.lead, s.base, 'Falls');
    await createTool(s.lead, s.base, 'Sepsis');
    const retired = await s.lead.put(`${s.base}/tools/${falls.id}`, {
      name: 'Falls (2024)',
      purpose: 'Old form',
      retired: true,
    });
    expect(retired.statusCode, retired.body).toBe(200);
    expect(retired.json()).toMatchObject({ name: 'Falls (2024)', purpose: 'Old form', retired: true });
    const list = (await s.lead.get(`${s.base}/tools`)).json().tools;
    expect(list.map((t: { name: string; retired: boolean }) => [t.name, t.retired])).toEqual([
      ['Sepsis', false],
      ['Falls (2024)', true],
    ]);
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(event).toMatchObject({
      action: 'chart_review.tool_updated',
      subjectType: 'cr_tool',
      subjectId: String(falls.id),
      data: { fields: ['name', 'purpose', 'retired'], retired: true },
    });
    const back = await s.lead.put(`${s.base}/tools/${falls.id}`, {
      name: 'Falls',
      purpose: 'Old form',
      retired: false,
    });
    expect(back.json()).toMatchObject({ name: 'Falls', retired: false });

    const before = await chartReviewSnapshot(db());
    const taken = await s.lead.put(`${s.base}/tools/${falls.id}`, { name: 'SEPSIS', purpose: '', retired: false });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().errors).toEqual({ name: ['A tool with this name exists.'] });
    // Nothing changed: no write, no event.
    expect((await s.lead.put(`${s.base}/tools/${falls.id}`, back.json())).statusCode).toBe(200);
    expect(await chartReviewSnapshot(db())).toEqual(before);
  });

  it('saves a draft’s questions in the order given, all field errors at once', async () => {
    const s = await setup();
    const tool = await createTool(s.lead, s.base, 'Falls');
    const before = await chartReviewSnapshot(db());
    const refused = await saveQuestions(s, tool.versionId, [
      question('fall_risk', { show_if: 'icu_patient == "yes"' }),
      question('icu_patient'),
      question('fall_risk', { answer_type: 'yes_partial_no_na', na_allowed: false, na_reason_required: true }),
      question('bed_alarm', { show_if: "icu_patient == 'yes' and" }),
      question('Bad key'),
    ]);
    expect(refused.statusCode).toBe(400);
    // Schema errors (the key pattern) come first, before the checks that need the whole list.
    expect(refused.json().errors).toEqual({
      'questions.4.key': [
        'A question key starts with a lower-case letter and has only lower-case letters, digits and _ (at most 63).',
      ],
    });
    const answer = await saveQuestions(s, tool.versionId, [
      question('fall_risk', { show_if: "icu_patient == 'yes'" }),
      question('icu_patient'),
      question('fall_risk', { answer_type: 'yes_partial_no_na', na_allowed: false, na_reason_required: true }),
      question('bed_alarm', { show_if: "icu_patient == 'yes' and" }),
    ]);
    expect(answer.statusCode).toBe(400);
    const { errors, message } = answer.json();
    expect(Object.keys(errors).sort()).toEqual([
      'questions.0.show_if',
      'questions.2.answer_type',
      'questions.2.key',
      'questions.2.na_reason_required',
      'questions.3.show_if',
    ]);
    expect(errors['questions.0.show_if'][0]).toContain('icu_patient');
    expect(errors['questions.2.key']).toEqual(['The key "fall_risk" is already used by question 1.']);
    expect(errors['questions.2.answer_type']).toEqual(['Partial answers are off in the chart review settings.']);
    expect(errors['questions.2.na_reason_required']).toEqual([
      'A reason for N/A can be required only when N/A is allowed.',
    ]);
    expect(errors['questions.3.show_if']).toHaveLength(1);
    expect(message).toBe(errors['questions.0.show_if'][0]);
    expect(await chartReviewSnapshot(db())).toEqual(before);

    // Partial answers once the settings allow them; show_if over earlier keys.
    const admin = await ctx.signedIn(s.people.admin);
    const settings = (await admin.get(`${s.base}/settings`)).json();
    const { updated_at: _at, updated_by: _by, abilities: _abilities, ...input } = settings;
    expect((await admin.put(`${s.base}/settings`, { ...input, partial_enabled: true })).statusCode).toBe(200);
    const saved = await saveQuestions(s, tool.versionId, [
      question('icu_patient', { section: 'Admission' }),
      question('bed_alarm', { show_if: "icu_patient == 'yes'", critical: true, weight: 2 }),
      question('fall_risk', { answer_type: 'yes_partial_no_na', na_reason_required: true, help: 'Morse scale' }),
    ]);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().questions).toMatchObject([
      { position: 1, key: 'icu_patient', section: 'Admission' },
      { position: 2, key: 'bed_alarm', show_if: "icu_patient == 'yes'", critical: true, weight: 2 },
      {
        position: 3,
        key: 'fall_risk',
        answer_type: 'yes_partial_no_na',
        na_reason_required: true,
        help: 'Morse scale',
      },
    ]);
    expect(saved.json().question_count).toBe(3);
    // Saving again replaces the list (new order, one fewer).
    const reordered = await saveQuestions(s, tool.versionId, [question('fall_risk'), question('icu_patient')]);
    expect(reordered.json().questions.map((q: { key: string; position: number }) => [q.position, q.key])).toEqual([
      [1, 'fall_risk'],
      [2, 'icu_patient'],
    ]);
    const stored = await db().select().from(crQuestions).where(eq(crQuestions.toolVersionId, tool.versionId));
    expect(stored).toHaveLength(2);
    expect(stored.every((row) => row.projectId === s.project.id)).toBe(true);
    expect(await actions(s)).toEqual([
      'chart_review.tool_created',
      'chart_review.settings_updated',
      'chart_review.tool_questions_saved',
      'chart_review.tool_questions_saved',
    ]);
  });

  it('publishes, copies into a new version, retires the old on the next publication; published never changes', async () => {
    const s = await setup();
    const tool = await createTool(s.lead, s.base, 'Falls');
    const empty = await s.lead.post(`${s.base}/tool-versions/${tool.versionId}/publish`, { note: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toEqual({ questions: ['Add at least one question before publishing.'] });

    await saveQuestions(s, tool.versionId, [question('fall_risk'), question('care_plan', { critical: true })]);
    const first = await s.lead.post(`${s.base}/tool-versions/${tool.versionId}/publish`, { note: '' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      version: 1,
      status: 'published',
      published_by: { id: s.people.lead.id, name: 'Leo Lead' },
      abilities: { edit: false, publish: false, discard: false },
    });
    expect(first.json().published_at).not.toBeNull();

    const draft = await s.lead.post(`${s.base}/tools/${tool.id}/versions`);
    expect(draft.statusCode, draft.body).toBe(201);
    const v2 = draft.json();
    expect(v2).toMatchObject({ version: 2, status: 'draft', abilities: { edit: true, publish: true, discard: true } });
    expect(v2.questions.map((q: { key: string; critical: boolean }) => [q.key, q.critical])).toEqual([
      ['fall_risk', false],
      ['care_plan', true],
    ]);
    // The copy has its own rows.
    expect(v2.questions[0].id).not.toBe(first.json().questions[0].id);
    const again = await s.lead.post(`${s.base}/tools/${tool.id}/versions`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This tool already has a draft.');

    const published = 'A published version cannot change. Start a new version.';
    const change = await saveQuestions(s, tool.versionId, [question('other')]);
    expect(change.statusCode).toBe(409);
    expect(change.json().message).toBe(published);

    await saveQuestions(s, v2.id, [question('fall_risk'), question('care_plan'), question('bed_alarm')]);
    const noNote = await s.lead.post(`${s.base}/tool-versions/${v2.id}/publish`, { note: '  ' });
    expect(noNote.statusCode).toBe(400);
    expect(noNote.json().errors).toEqual({ note: ['Say what changed in this version.'] });
    const second = await s.lead.post(`${s.base}/tool-versions/${v2.id}/publish`, { note: 'Adds the bed alarm.' });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toMatchObject({ status: 'published', note: 'Adds the bed alarm.', question_count: 3 });

    const toolNow = (await s.lead.get(`${s.base}/tools/${tool.id}`)).json();
    expect(toolNow.published).toMatchObject({ id: v2.id, version: 2 });
    expect(toolNow.draft).toBeNull();
    expect(toolNow.versions.map((v: { version: number; status: string }) => [v.version, v.status])).toEqual([
      [2, 'published'],
      [1, 'retired'],
    ]);
    for (const versionId of [tool.versionId, v2.id]) {
      const answer = await saveQuestions(s, versionId, [question('other')]);
      expect(answer.statusCode).toBe(409);
      expect(answer.json().message).toBe(published);
      const republish = await s.lead.post(`${s.base}/tool-versions/${versionId}/publish`, { note: 'x' });
      expect(republish.statusCode).toBe(409);
      expect(republish.json().message).toBe('Only a draft can be published. Start a new version.');
      const discard = await s.lead.delete(`${s.base}/tool-versions/${versionId}`);
      expect(discard.statusCode).toBe(409);
      expect(discard.json().message).toBe('Only a draft can be discarded.');
    }
    const [event] = await db()
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'chart_review.tool_version_published'))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(event?.data).toEqual({
      tool_id: tool.id,
      version: 2,
      note: 'Adds the bed alarm.',
      retired_version_ids: [tool.versionId],
    });
    expect(await actions(s)).toEqual([
      'chart_review.tool_created',
      'chart_review.tool_questions_saved',
      'chart_review.tool_version_published',
      'chart_review.tool_version_created',
      'chart_review.tool_questions_saved',
      'chart_review.tool_version_published',
    ]);
  });

  it('discards a later draft but never version 1', async () => {
    const s = await setup();
    const tool = await createTool(s.lead, s.base, 'Falls');
    const first = await s.lead.delete(`${s.base}/tool-versions/${tool.versionId}`);
    expect(first.statusCode).toBe(409);
    expect(first.json().message).toBe('The first version cannot be discarded.');

    await saveQuestions(s, tool.versionId, [question('fall_risk')]);
    await s.lead.post(`${s.base}/tool-versions/${tool.versionId}/publish`, { note: '' });
    const v2 = (await s.lead.post(`${s.base}/tools/${tool.id}/versions`)).json();
    const discarded = await s.lead.delete(`${s.base}/tool-versions/${v2.id}`);
    expect(discarded.statusCode, discarded.body).toBe(204);
    expect(await db().select().from(crToolVersions).where(eq(crToolVersions.id, v2.id))).toEqual([]);
    expect(await db().select().from(crQuestions).where(eq(crQuestions.toolVersionId, v2.id))).toEqual([]);
    expect((await s.lead.get(`${s.base}/tool-versions/${v2.id}`)).statusCode).toBe(404);
    // The number is free again.
    const next = await s.lead.post(`${s.base}/tools/${tool.id}/versions`);
    expect(next.json().version).toBe(2);
    expect((await actions(s)).slice(-2)).toEqual([
      'chart_review.tool_version_discarded',
      'chart_review.tool_version_created',
    ]);
  });

  it('treats a frozen draft like a published version', async () => {
    const s = await setup();
    const tool = await createTool(s.lead, s.base, 'Falls');
    await saveQuestions(s, tool.versionId, [question('fall_risk')]);
    await db().update(crToolVersions).set({ frozenAt: new Date() }).where(eq(crToolVersions.id, tool.versionId));
    const version = await s.lead.get(`${s.base}/tool-versions/${tool.versionId}`);
    expect(version.json()).toMatchObject({ frozen: true, abilities: { edit: false, publish: false, discard: false } });
    const before = await chartReviewSnapshot(db());
    const change = await saveQuestions(s, tool.versionId, [question('other')]);
    expect(change.statusCode).toBe(409);
    expect(change.json().message).toBe('A published version cannot change. Start a new version.');
    expect((await s.lead.post(`${s.base}/tool-versions/${tool.versionId}/publish`, { note: '' })).statusCode).toBe(409);
    expect(await chartReviewSnapshot(db())).toEqual(before);
  });

  it('checks Partial answers again when publishing, against the settings of now', async () => {
    const s = await setup();
    const admin = await ctx.signedIn(s.people.admin);
    const settings = (await admin.get(`${s.base}/settings`)).json();
    const { updated_at: _at, updated_by: _by, abilities: _abilities, ...input } = settings;
    await admin.put(`${s.base}/settings`, { ...input, partial_enabled: true });
    const tool = await createTool(s.lead, s.base, 'Falls');
    const saved = await saveQuestions(s, tool.versionId, [question('fall_risk', { answer_type: 'yes_partial_no_na' })]);
    expect(saved.statusCode, saved.body).toBe(200);
    await admin.put(`${s.base}/settings`, { ...input, partial_enabled: false });
    const publish = await s.lead.post(`${s.base}/tool-versions/${tool.versionId}/publish`, { note: '' });
    expect(publish.statusCode).toBe(400);
    expect(publish.json().errors).toEqual({
      'questions.0.answer_type': ['Partial answers are off in the chart review settings.'],
    });
  });
});
