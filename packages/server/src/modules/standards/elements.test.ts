import type { StdFramework } from '@portal/shared';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import {
  agentsOf,
  auditOf,
  createAssessment,
  elementBody,
  importFramework,
  readElement,
  saveElement,
  standardsSetup,
  standardsSnapshot,
} from '../../../test/standards-kit.js';
import { stdMappings, stdNodeLocal, stdNodes, stdReqAssessments } from '../../db/schema/index.js';

/** The element panel and its changes: assessment with an optimistic version, wording, comments, history, bulk. */
describe('standards elements', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;
  const FORBIDDEN = 'Your standards role does not allow this.';

  it('shows the panel: text, path, owner, abilities; saves with the version and refuses a stale one (409)', async () => {
    const s = await standardsSetup(ctx);
    const owner = await ctx.signedIn(s.people.owner);
    const id = s.reqs['GOV.1.1'];
    const panel = await readElement(s.admin, s.base, id);
    expect(panel).toMatchObject({
      id,
      assessment_id: s.assessmentId,
      version: 0,
      node: { id: s.nodes['GOV.1.1'], ref_id: 'GOV.1.1', title: 'Board meets quarterly', node_type: 'element' },
      framework: { id: s.framework.id, name: 'State quality standards', edition: '2026', text_policy: 'tenant_text' },
      local: { wording: '', guidance: '', public_url: '' },
      result: 'not_assessed',
      status: 'to_do',
      na_justification: '',
      owner: { id: s.people.owner.id, name: 'Owen Owner' },
      due_date: null,
      overdue: false,
      observation: '',
      last_reviewed_at: null,
      last_reviewed_by: null,
      crosswalk: [],
      policies: [],
      measures: [],
      programs: [],
      comments: [],
      history: [],
      abilities: { edit: true, comment: true, link: true, edit_wording: true, finding: true },
    });
    const stale = await elementBody(s.admin, s.base, id, { result: 'non_compliant', observation: 'No minutes.' });

    // The owner saves first.
    const saved = await saveElement(owner, s.base, id, {
      result: 'compliant',
      status: 'done',
      observation: 'Four meetings in 2026, minutes seen.',
      due_date: '2027-01-31',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      version: 1,
      result: 'compliant',
      status: 'done',
      observation: 'Four meetings in 2026, minutes seen.',
      due_date: '2027-01-31',
      last_reviewed_by: 'Owen Owner',
    });
    expect(saved.json().last_reviewed_at).not.toBeNull();

    // The admin's form still says version 0: refused, nothing changed.
    const before = await standardsSnapshot(db());
    const conflict = await s.admin.put(`${s.base}/req-assessments/${id}`, stale);
    expect(conflict.statusCode, conflict.body).toBe(409);
    expect(conflict.json().message).toContain('Someone else changed this element');
    expect(await standardsSnapshot(db())).toEqual(before);
    // Reloaded, the admin's change goes through.
    const retried = await saveElement(s.admin, s.base, id, { result: 'non_compliant' });
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ version: 2, result: 'non_compliant', last_reviewed_by: 'Ada Admin' });
    // Saving the same values again changes nothing and records nothing.
    const same = await elementBody(s.admin, s.base, id);
    const unchanged = await standardsSnapshot(db());
    expect((await s.admin.put(`${s.base}/req-assessments/${id}`, same)).statusCode).toBe(200);
    expect(await standardsSnapshot(db())).toEqual(unchanged);
  });

  it("shows the crosswalk of the element's node, both ways, without another project's frameworks", async () => {
    const s = await standardsSetup(ctx);
    const cms = ((await s.admin.get(`${s.base}/frameworks`)).json().frameworks as StdFramework[]).find(
      (f) => f.built_in,
    )!;
    const [cmsNode] = await db()
      .select()
      .from(stdNodes)
      .where(and(eq(stdNodes.frameworkId, cms.id), eq(stdNodes.assessable, true)))
      .limit(1);
    const outsider = await ctx.signedIn(s.people.outsider);
    const theirs = await importFramework(db(), outsider, s.otherBase, { code: 'SOUTH', name: 'South standards' });
    const mine = await importFramework(db(), s.admin, s.base, { code: 'LOCAL', name: 'Local policies' });
    await db()
      .insert(stdMappings)
      .values([
        { projectId: null, sourceNodeId: s.nodes['GOV.1.1'], targetNodeId: cmsNode!.id, relationship: 'subset' },
        {
          projectId: s.project.id,
          sourceNodeId: mine.nodes['GOV.1.1']!,
          targetNodeId: s.nodes['GOV.1.1'],
          relationship: 'equal',
        },
        // Another project's mapping, and a mapping to another project's framework: never shown here.
        {
          projectId: s.other.id,
          sourceNodeId: s.nodes['GOV.1.1'],
          targetNodeId: mine.nodes['GOV.1.2']!,
          relationship: 'intersect',
        },
        {
          projectId: null,
          sourceNodeId: s.nodes['GOV.1.1'],
          targetNodeId: theirs.nodes['GOV.1.1']!,
          relationship: 'equal',
        },
      ]);
    const panel = await readElement(s.admin, s.base, s.reqs['GOV.1.1']);
    expect(panel.crosswalk).toHaveLength(2);
    expect(panel.crosswalk).toEqual(
      expect.arrayContaining([
        {
          framework: `${cms.name} ${cms.edition}`,
          ref_id: cmsNode!.refId,
          title: cmsNode!.title,
          relationship: 'subset',
        },
        { framework: 'Local policies 2026', ref_id: 'GOV.1.1', title: 'Board meets quarterly', relationship: 'equal' },
      ]),
    );
    expect((await readElement(s.admin, s.base, s.reqs['GOV.1.2'])).crosswalk).toEqual([]);
  });

  it('needs a justification for not applicable and validates the input', async () => {
    const s = await standardsSetup(ctx);
    const id = s.reqs['OB.1'];
    const before = await standardsSnapshot(db());
    const refused = await saveElement(s.admin, s.base, id, { result: 'not_applicable', na_justification: '   ' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.na_justification).toEqual(['Say why this element does not apply.']);
    const invalid = await saveElement(s.admin, s.base, id, {
      result: 'passed' as never,
      status: 'later' as never,
      due_date: '2027-02-30',
      version: -1,
    });
    expect(invalid.statusCode).toBe(400);
    expect(Object.keys(invalid.json().errors).sort()).toEqual(['due_date', 'result', 'status', 'version']);
    const viewerOwner = await saveElement(s.admin, s.base, id, { owner_id: s.people.viewer.id });
    expect(viewerOwner.statusCode).toBe(400);
    expect(viewerOwner.json().errors.owner_id).toEqual([
      'Choose a person with a standards role that may own elements.',
    ]);
    expect(await standardsSnapshot(db())).toEqual(before);
    const na = await saveElement(s.admin, s.base, id, {
      result: 'not_applicable',
      na_justification: 'No obstetric service.',
    });
    expect(na.statusCode).toBe(200);
    expect(na.json()).toMatchObject({ result: 'not_applicable', na_justification: 'No obstetric service.' });
    // Back to a result: the justification goes.
    const back = await saveElement(s.admin, s.base, id, { result: 'compliant' });
    expect(back.json()).toMatchObject({ result: 'compliant', na_justification: '' });
  });

  it("lets an owner assess their own element, not another's, and not hand it on", async () => {
    const s = await standardsSetup(ctx);
    const owner = await ctx.signedIn(s.people.owner);
    const own = await saveElement(owner, s.base, s.reqs['GOV.1.2'], { result: 'partially_compliant' });
    expect(own.statusCode, own.body).toBe(200);
    const before = await standardsSnapshot(db());
    for (const ref of ['GOV.2.1', 'IC.1.1', 'OB.1'] as const) {
      const panel = await readElement(owner, s.base, s.reqs[ref]);
      expect(panel.abilities, ref).toEqual({
        edit: false,
        comment: true,
        link: false,
        edit_wording: false,
        finding: false,
      });
      const refused = await saveElement(owner, s.base, s.reqs[ref], { result: 'compliant' });
      expect(refused.statusCode, ref).toBe(403);
      expect(refused.json().message).toBe(FORBIDDEN);
      const wording = await owner.put(`${s.base}/req-assessments/${s.reqs[ref]}/wording`, {
        wording: 'Ours',
        guidance: '',
        public_url: '',
      });
      expect(wording.statusCode, ref).toBe(403);
    }
    const handOn = await saveElement(owner, s.base, s.reqs['GOV.1.2'], { owner_id: s.people.owner2.id });
    expect(handOn.statusCode).toBe(403);
    expect(handOn.json().message).toBe('Only standards admins and chapter leads change owners.');
    const giveUp = await saveElement(owner, s.base, s.reqs['GOV.1.2'], { owner_id: null });
    expect(giveUp.statusCode).toBe(403);
    expect(await standardsSnapshot(db())).toEqual(before);
    // Own wording is theirs to write.
    const wording = await owner.put(`${s.base}/req-assessments/${s.reqs['GOV.1.2']}/wording`, {
      wording: 'The board keeps signed minutes.',
      guidance: '',
      public_url: '',
    });
    expect(wording.statusCode, wording.body).toBe(200);
  });

  it('lets a contributor comment on (not assess) their element; the mock assessor comments; the viewer does not', async () => {
    const s = await standardsSetup(ctx);
    const contributor = await ctx.signedIn(s.people.contributor);
    const assessor = await ctx.signedIn(s.people.assessor);
    const viewer = await ctx.signedIn(s.people.viewer);
    const id = s.reqs['GOV.2.1'];
    expect((await readElement(contributor, s.base, id)).abilities).toEqual({
      edit: false,
      comment: true,
      link: true,
      edit_wording: false,
      finding: false,
    });
    expect((await readElement(assessor, s.base, id)).abilities).toEqual({
      edit: false,
      comment: true,
      link: false,
      edit_wording: false,
      finding: true,
    });
    expect((await readElement(viewer, s.base, id)).abilities).toEqual({
      edit: false,
      comment: false,
      link: false,
      edit_wording: false,
      finding: false,
    });
    const before = await standardsSnapshot(db());
    for (const [agent, who] of [
      [contributor, 'contributor'],
      [assessor, 'assessor'],
      [viewer, 'viewer'],
    ] as const) {
      const refused = await saveElement(agent, s.base, id, { result: 'compliant' });
      expect(refused.statusCode, who).toBe(403);
      expect(refused.json().message).toBe(FORBIDDEN);
    }
    const silent = await viewer.post(`${s.base}/req-assessments/${id}/comments`, { body: 'Looks fine.' });
    expect(silent.statusCode).toBe(403);
    expect(silent.json().message).toBe(FORBIDDEN);
    expect(await standardsSnapshot(db())).toEqual(before);

    const empty = await contributor.post(`${s.base}/req-assessments/${id}/comments`, { body: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.body).toEqual(['Write a comment.']);
    const first = await contributor.post(`${s.base}/req-assessments/${id}/comments`, { body: 'Plan is drafted.' });
    expect(first.statusCode, first.body).toBe(200);
    const second = await assessor.post(`${s.base}/req-assessments/${id}/comments`, {
      body: 'A surveyor would ask for the board approval.',
    });
    expect(second.statusCode, second.body).toBe(200);
    const panel = second.json();
    expect(
      panel.comments.map((c: { author: { id: number; name: string }; body: string }) => [c.author.name, c.body]),
    ).toEqual([
      ['Cora Contributor', 'Plan is drafted.'],
      ['Max Mock', 'A surveyor would ask for the board approval.'],
    ]);
    expect(panel.comments[0].author.id).toBe(s.people.contributor.id);
    // Comments do not change the assessment.
    expect(panel).toMatchObject({ version: 0, result: 'not_assessed' });
  });

  it('lists the history of an element in words, newest first', async () => {
    const s = await standardsSetup(ctx);
    const owner = await ctx.signedIn(s.people.owner);
    const id = s.reqs['GOV.1.1'];
    expect(
      (await saveElement(owner, s.base, id, { result: 'compliant', status: 'done', observation: 'Seen.' })).statusCode,
    ).toBe(200);
    expect(
      (await saveElement(s.admin, s.base, id, { owner_id: s.people.owner2.id, due_date: '2027-05-01' })).statusCode,
    ).toBe(200);
    expect(
      (await s.admin.put(`${s.base}/req-assessments/${id}/wording`, { wording: 'Ours', guidance: '', public_url: '' }))
        .statusCode,
    ).toBe(200);
    expect((await s.admin.post(`${s.base}/req-assessments/${id}/comments`, { body: 'Noted.' })).statusCode).toBe(200);
    const panel = await readElement(s.admin, s.base, id);
    expect(panel.history.map((h) => [h.action, h.actor, h.summary])).toEqual([
      ['comment_added', 'Ada Admin', 'Comment added'],
      ['wording_updated', 'Ada Admin', 'Facility wording changed'],
      ['element_updated', 'Ada Admin', 'Owner: Owen Owner → Olive Second; Due: none → 2027-05-01'],
      ['element_updated', 'Owen Owner', 'Result: Not assessed → Compliant; Status: To do → Done; Observation changed'],
    ]);
    // Only this element's events: another element has none.
    expect((await readElement(s.admin, s.base, s.reqs['GOV.1.2'])).history).toEqual([]);
    const events = await auditOf(db(), s.project.id, 'standards.element_updated');
    expect(events.every((e) => e.subjectType === 'std_req_assessment' && e.subjectId === String(id))).toBe(true);
    // The audit log has each changed field before and after: the observation's words, not only "Observation changed".
    expect(events.map((e) => e.data.changes)).toEqual([
      {
        result: { from: 'not_assessed', to: 'compliant' },
        status: { from: 'to_do', to: 'done' },
        observation: { from: '', to: 'Seen.' },
      },
      {
        owner_id: { from: s.people.owner.id, to: s.people.owner2.id },
        due_date: { from: null, to: '2027-05-01' },
      },
    ]);
    const [wording] = await auditOf(db(), s.project.id, 'standards.wording_updated');
    expect(wording!.data.changes).toEqual({ wording: { from: '', to: 'Ours' } });
  });

  it('records an observation edited again with its words before and after, long ones shortened', async () => {
    const s = await standardsSetup(ctx);
    const id = s.reqs['GOV.1.1'];
    const long = `Minutes of ${'every quarterly board meeting '.repeat(10)}were seen.`;
    expect((await saveElement(s.admin, s.base, id, { observation: 'Two meetings seen.' })).statusCode).toBe(200);
    expect((await saveElement(s.admin, s.base, id, { observation: long })).statusCode).toBe(200);
    const events = await auditOf(db(), s.project.id, 'standards.element_updated');
    expect(events.map((e) => e.data.changes)).toEqual([
      { observation: { from: '', to: 'Two meetings seen.' } },
      { observation: { from: 'Two meetings seen.', to: `${long.slice(0, 200)}…` } },
    ]);
    expect(events.map((e) => e.data.summary)).toEqual([['Observation changed'], ['Observation changed']]);
  });

  it('keeps the wording per project and node: every assessment of the framework shows it, other projects do not', async () => {
    const s = await standardsSetup(ctx);
    const id = s.reqs['IC.1.1'];
    const invalid = await s.admin.put(`${s.base}/req-assessments/${id}/wording`, {
      wording: 'x',
      guidance: '',
      public_url: 'ftp://files.example/ic.pdf',
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors.public_url).toEqual(['Enter a link starting with https:// or http://.']);
    const saved = await s.admin.put(`${s.base}/req-assessments/${id}/wording`, {
      wording: '  Hand hygiene is observed on every ward each month.  ',
      guidance: 'Use the WHO five moments form.',
      public_url: 'https://intranet.example/hand-hygiene',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const local = {
      wording: 'Hand hygiene is observed on every ward each month.',
      guidance: 'Use the WHO five moments form.',
      public_url: 'https://intranet.example/hand-hygiene',
    };
    expect(saved.json().local).toEqual(local);
    const rows = await db().select().from(stdNodeLocal).where(eq(stdNodeLocal.nodeId, s.nodes['IC.1.1']));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      projectId: s.project.id,
      updatedBy: s.people.admin.id,
      ...{ wording: local.wording },
    });
    // A second assessment of the same framework shares it.
    const second = await createAssessment(db(), s.admin, s.base, s.framework.id, { name: 'Mock survey' });
    expect((await readElement(s.admin, s.base, second.reqs['IC.1.1']!)).local).toEqual(local);
    // Saving again updates the one row.
    const again = await s.admin.put(`${s.base}/req-assessments/${second.reqs['IC.1.1']}/wording`, {
      ...local,
      wording: 'Observed monthly.',
    });
    expect(again.statusCode).toBe(200);
    expect((await readElement(s.admin, s.base, id)).local.wording).toBe('Observed monthly.');
    expect(await db().select().from(stdNodeLocal).where(eq(stdNodeLocal.nodeId, s.nodes['IC.1.1']))).toHaveLength(1);

    // The built-in framework's nodes are shared by every project; the wording on them is not.
    const outsider = await ctx.signedIn(s.people.outsider);
    const cms = ((await s.admin.get(`${s.base}/frameworks`)).json().frameworks as StdFramework[]).find(
      (f) => f.built_in,
    )!;
    const ours = await createAssessment(db(), s.admin, s.base, cms.id, { name: 'CMS here' });
    const theirs = await createAssessment(db(), outsider, s.otherBase, cms.id, { name: 'CMS there' });
    const ref = Object.keys(ours.reqs)[0]!;
    const wording = await s.admin.put(`${s.base}/req-assessments/${ours.reqs[ref]}/wording`, {
      wording: 'North Clinic wording of this element.',
      guidance: '',
      public_url: '',
    });
    expect(wording.statusCode, wording.body).toBe(200);
    const there = await readElement(outsider, s.otherBase, theirs.reqs[ref]!);
    expect(there.node.ref_id).toBe(ref);
    expect(there.local).toEqual({ wording: '', guidance: '', public_url: '' });
    const searched = await outsider.get(`${s.otherBase}/assessments/${theirs.id}/tree?search=north%20clinic%20wording`);
    expect(searched.json().matches).toBe(0);
    const searchedHere = await s.admin.get(`${s.base}/assessments/${ours.id}/tree?search=north%20clinic%20wording`);
    expect(searchedHere.json().matches).toBe(1);
  });

  it('bulk-sets owner and due date for a standards admin, audited per element', async () => {
    const s = await standardsSetup(ctx);
    const ids = [s.reqs['IC.1.1'], s.reqs['IC.1.2'], s.reqs['OB.1']];
    const answer = await s.admin.post(`${s.base}/req-assessments/bulk`, {
      ids: [...ids, s.reqs['OB.1']],
      owner_id: s.people.owner2.id,
      due_date: '2027-03-01',
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ updated: 3 });
    const rows = await db().select().from(stdReqAssessments).where(inArray(stdReqAssessments.id, ids));
    for (const row of rows) {
      expect(row).toMatchObject({ ownerId: s.people.owner2.id, dueDate: '2027-03-01', version: 1 });
    }
    const untouched = await db().select().from(stdReqAssessments).where(eq(stdReqAssessments.id, s.reqs['GOV.1.1']));
    expect(untouched[0]).toMatchObject({ ownerId: s.people.owner.id, dueDate: null, version: 0 });
    const events = await auditOf(db(), s.project.id, 'standards.element_updated');
    expect(events.map((e) => Number(e.subjectId)).sort()).toEqual([...ids].sort());
    expect(events[0]!.data).toMatchObject({ bulk: true, owner_id: s.people.owner2.id, due_date: '2027-03-01' });
    expect((await readElement(s.admin, s.base, s.reqs['OB.1'])).history[0]!.summary).toBe(
      'Owner set in bulk; Due: 2027-03-01 (bulk)',
    );
    // Leaving a field out keeps it; null clears it.
    const due = await s.admin.post(`${s.base}/req-assessments/bulk`, { ids: [s.reqs['OB.1']], due_date: null });
    expect(due.statusCode).toBe(200);
    expect(await readElement(s.admin, s.base, s.reqs['OB.1'])).toMatchObject({
      owner: { id: s.people.owner2.id },
      due_date: null,
    });

    const agents = await agentsOf(ctx, s, ['owner', 'contributor', 'assessor']);
    const before = await standardsSnapshot(db());
    const neither = await s.admin.post(`${s.base}/req-assessments/bulk`, { ids });
    expect(neither.statusCode).toBe(400);
    expect(neither.json().errors.owner_id).toEqual(['Choose an owner or a due date.']);
    const none = await s.admin.post(`${s.base}/req-assessments/bulk`, { ids: [], due_date: null });
    expect(none.json().errors.ids).toEqual(['Choose at least one element.']);
    const noRole = await s.admin.post(`${s.base}/req-assessments/bulk`, { ids, owner_id: s.people.assessor.id });
    expect(noRole.statusCode).toBe(400);
    expect(noRole.json().errors.owner_id).toEqual(['Choose a person with a standards role that may own elements.']);
    for (const [who, agent] of Object.entries(agents)) {
      const refused = await agent.post(`${s.base}/req-assessments/bulk`, { ids, due_date: '2027-04-01' });
      expect(refused.statusCode, who).toBe(403);
    }
    expect(await standardsSnapshot(db())).toEqual(before);
  });

  it('lets a chapter lead change elements only below the nodes they lead', async () => {
    const s = await standardsSetup(ctx);
    const lead = await ctx.signedIn(s.people.lead);
    expect((await readElement(lead, s.base, s.reqs['IC.1.1'])).abilities).toEqual({
      edit: true,
      comment: true,
      link: true,
      edit_wording: true,
      finding: true,
    });
    expect((await readElement(lead, s.base, s.reqs['GOV.1.1'])).abilities.edit).toBe(false);
    const led = await saveElement(lead, s.base, s.reqs['IC.1.1'], {
      result: 'non_compliant',
      owner_id: s.people.owner2.id,
    });
    expect(led.statusCode, led.body).toBe(200);
    expect(led.json().owner).toEqual({ id: s.people.owner2.id, name: 'Olive Second' });
    const bulk = await lead.post(`${s.base}/req-assessments/bulk`, {
      ids: [s.reqs['IC.1.1'], s.reqs['IC.1.2']],
      due_date: '2027-02-01',
    });
    expect(bulk.statusCode, bulk.body).toBe(200);

    const before = await standardsSnapshot(db());
    const elsewhere = await saveElement(lead, s.base, s.reqs['GOV.1.1'], { result: 'compliant' });
    expect(elsewhere.statusCode).toBe(403);
    const mixed = await lead.post(`${s.base}/req-assessments/bulk`, {
      ids: [s.reqs['IC.1.2'], s.reqs['OB.1']],
      due_date: '2027-05-01',
    });
    expect(mixed.statusCode).toBe(403);
    expect(mixed.json().message).toBe('You can change only the elements of the chapters you lead.');
    expect(await standardsSnapshot(db())).toEqual(before);
  });

  it("answers 404 to another project's element ids in bulk, and changes nothing", async () => {
    const s = await standardsSetup(ctx);
    const outsider = await ctx.signedIn(s.people.outsider);
    const theirs = await importFramework(db(), outsider, s.otherBase);
    const assessment = await createAssessment(db(), outsider, s.otherBase, theirs.framework.id);
    const foreign = assessment.reqs['GOV.1.1']!;
    const before = await standardsSnapshot(db());
    const mixed = await s.admin.post(`${s.base}/req-assessments/bulk`, {
      ids: [s.reqs['IC.1.1'], foreign],
      due_date: '2027-03-01',
    });
    expect(mixed.statusCode).toBe(404);
    const only = await s.admin.post(`${s.base}/req-assessments/bulk`, { ids: [foreign], owner_id: null });
    expect(only.statusCode).toBe(404);
    expect((await s.admin.get(`${s.base}/req-assessments/${foreign}`)).statusCode).toBe(404);
    expect(
      (await s.admin.put(`${s.base}/req-assessments/${foreign}`, await elementBody(outsider, s.otherBase, foreign)))
        .statusCode,
    ).toBe(404);
    expect(
      (await s.admin.post(`${s.base}/req-assessments/${foreign}/comments`, { body: 'Hello from North.' })).statusCode,
    ).toBe(404);
    expect(await standardsSnapshot(db())).toEqual(before);
  });
});
