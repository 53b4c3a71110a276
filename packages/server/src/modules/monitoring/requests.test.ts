import { HIDDEN_PAGE_MESSAGE, JUSTIFICATION_REQUIRED_MESSAGE, REJECT_NEEDS_RESPONSE_MESSAGE } from '@portal/shared';
import { count, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { insertPage, monitoringProject } from '../../../test/monitoring-kit.js';
import { multipart } from '../../../test/policy-kit.js';
import {
  auditEvents,
  monPages,
  monRequestComments,
  monRequests,
  notifications,
  storedFiles,
} from '../../db/schema/index.js';

describe('data requests', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;
  /** A day from the test clock, `days` from today. */
  const day = (days: number) => new Date(ctx.clock.now().getTime() + days * 86_400_000).toISOString().slice(0, 10);

  async function setup() {
    const s = await monitoringProject(db());
    const falls = await insertPage(db(), s.project.id, { title: 'Falls with injury', number: '1' });
    const clabsi = await insertPage(db(), s.project.id, { title: 'CLABSI', number: '2' });
    const base = `/api/projects/${s.project.id}/monitoring`;
    return {
      ...s,
      falls,
      clabsi,
      base,
      admin: await ctx.signedIn(s.people.admin),
      viewer: await ctx.signedIn(s.people.viewer),
      dataEntry: await ctx.signedIn(s.people.dataEntry),
    };
  }

  const valid = (pageIds: number[]) => ({
    title: 'Falls by ward',
    purpose: 'Quarterly review of falls.',
    page_ids: pageIds,
    period_from: '2026-01-01',
    period_to: '2026-03-31',
    format: 'csv',
    patient_level: false,
    needed_by: day(30),
  });

  async function file(s: Awaited<ReturnType<typeof setup>>, pageIds = [s.falls.id]) {
    const answer = await s.viewer.post(`${s.base}/requests`, valid(pageIds));
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json() as { id: number };
  }

  async function lastAudit() {
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    return event!;
  }

  const bells = (userId: number) =>
    db()
      .select({ message: notifications.message, link: notifications.link })
      .from(notifications)
      .where(eq(notifications.userId, userId));

  it('guards every call: 401 signed out, 403 without a role or for the queue, 404 outside; nothing changes', async () => {
    const s = await setup();
    const request = await file(s);
    const upload = multipart({}, { name: 'falls.csv', data: Buffer.from('ward,falls\nA,3\n') });
    const calls: [string, string, unknown, boolean][] = [
      ['get', `${s.base}/requests?scope=mine`, undefined, false],
      ['get', `${s.base}/requests?scope=queue`, undefined, true],
      ['get', `${s.base}/requests/stewards`, undefined, true],
      ['post', `${s.base}/requests`, valid([s.falls.id]), false],
      ['get', `${s.base}/requests/${request.id}`, undefined, false],
      ['patch', `${s.base}/requests/${request.id}`, { status: 'triaged' }, false],
      ['post', `${s.base}/requests/${request.id}/comments`, { body: 'Hello' }, false],
      ['post', `${s.base}/requests/${request.id}/file`, upload, true],
      ['get', `${s.base}/requests/${request.id}/file`, undefined, false],
    ];
    const anonymous = await ctx.anonymous();
    const owner = await ctx.signedIn(s.people.owner);
    const agents = {
      anonymous,
      noRole: await ctx.signedIn(s.people.noRole),
      outsider: await ctx.signedIn(s.people.outsider),
      owner,
    };
    const snapshot = async () => ({
      requests: await db().select().from(monRequests),
      comments: await db().select().from(monRequestComments),
      files: (await db().select({ n: count() }).from(storedFiles))[0]!.n,
      audit: (await db().select({ n: count() }).from(auditEvents))[0]!.n,
      bells: (await db().select({ n: count() }).from(notifications))[0]!.n,
    });
    const before = await snapshot();
    for (const [method, url, body, stewardsOnly] of calls) {
      // A page owner is no steward: the queue calls are 403; another requester's request is 404 to them.
      const ownerStatus = stewardsOnly ? 403 : url.includes(`/requests/${request.id}`) ? 404 : undefined;
      const expected: [keyof typeof agents, number][] = [
        ['anonymous', 401],
        ['noRole', 403],
        ['outsider', 404],
        ...(ownerStatus && !(method === 'post' && url.endsWith('/requests'))
          ? [['owner', ownerStatus] as [keyof typeof agents, number]]
          : []),
      ];
      for (const [who, status] of expected) {
        const agent = agents[who];
        const answer =
          method === 'get'
            ? await agent.get(url)
            : url.endsWith('/file')
              ? await agent.post(url, upload.payload, upload.headers)
              : await agent[method as 'post' | 'patch'](url, body);
        expect(answer.statusCode, `${method} ${url} as ${who}`).toBe(status);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('files a request, audits it and rings the data stewards (not the viewer)', async () => {
    const s = await setup();
    const answer = await s.viewer.post(`${s.base}/requests`, valid([s.falls.id, s.clabsi.id]));
    expect(answer.statusCode).toBe(201);
    const body = answer.json();
    expect(body).toMatchObject({
      title: 'Falls by ward',
      status: 'submitted',
      requester: { id: s.people.viewer.id, name: 'Vera Viewer' },
      assignee: null,
      pages: [
        { id: s.falls.id, number: '1', title: 'Falls with injury' },
        { id: s.clabsi.id, number: '2', title: 'CLABSI' },
      ],
      other_page_count: 0,
      format: 'csv',
      patient_level: false,
      justification: null,
      overdue: false,
      comments: [],
      transitions: ['cancelled'],
      abilities: { steward: false, cancel: true, comment: true, upload: false },
    });
    expect(await lastAudit()).toMatchObject({
      action: 'monitoring.request_created',
      projectId: s.project.id,
      actorUserId: s.people.viewer.id,
      subjectType: 'mon_request',
      subjectId: String(body.id),
    });
    const link = `/app/monitoring/${s.project.id}/request-form?request=${body.id}`;
    for (const steward of [s.people.admin, s.people.dataEntry]) {
      expect(await bells(steward.id)).toEqual([{ message: 'New data request: "Falls by ward".', link }]);
    }
    expect(await bells(s.people.owner.id)).toEqual([]);
    expect(await bells(s.people.viewer.id)).toEqual([]);
    expect(ctx.mailbox.last(s.people.dataEntry.email)).toMatchObject({ subject: 'New data request' });

    const mine = await s.viewer.get(`${s.base}/requests?scope=mine`);
    expect(mine.json().requests.map((r: { id: number }) => r.id)).toEqual([body.id]);
    expect((await s.admin.get(`${s.base}/requests?scope=mine`)).json().requests).toEqual([]);
  });

  it('refuses bad input: patient-level without a justification, hidden pages, wrong dates', async () => {
    const s = await setup();
    const patient = await s.viewer.post(`${s.base}/requests`, { ...valid([s.falls.id]), patient_level: true });
    expect(patient.statusCode).toBe(400);
    expect(patient.json().errors.justification).toEqual([JUSTIFICATION_REQUIRED_MESSAGE]);
    const justified = await s.viewer.post(`${s.base}/requests`, {
      ...valid([s.falls.id]),
      patient_level: true,
      justification: 'Root-cause review of each fall.',
    });
    expect(justified.statusCode).toBe(201);
    expect(justified.json()).toMatchObject({ patient_level: true, justification: 'Root-cause review of each fall.' });

    const secret = await insertPage(db(), s.project.id, { title: 'Secret', number: '3', restricted: true });
    const draft = await insertPage(db(), s.project.id, { title: 'Draft page', number: '4', status: 'draft' });
    const hidden = await s.viewer.post(`${s.base}/requests`, valid([s.falls.id, secret.id, draft.id, 999999]));
    expect(hidden.statusCode).toBe(400);
    expect(hidden.json().errors).toEqual({
      'page_ids.1': [HIDDEN_PAGE_MESSAGE],
      'page_ids.2': [HIDDEN_PAGE_MESSAGE],
      'page_ids.3': [HIDDEN_PAGE_MESSAGE],
    });
    expect(hidden.body).not.toContain('Secret');

    const dates = await s.viewer.post(`${s.base}/requests`, {
      ...valid([s.falls.id]),
      period_from: '2026-04-01',
      period_to: '2026-03-01',
    });
    expect(dates.json().errors.period_to).toEqual(['The end of the period must not be before its start.']);
    const past = await s.viewer.post(`${s.base}/requests`, { ...valid([s.falls.id]), needed_by: day(-1) });
    expect(past.statusCode).toBe(400);
    expect(past.json().errors.needed_by).toEqual(['The date must not be in the past.']);
    const empty = await s.viewer.post(`${s.base}/requests`, { ...valid([]), title: '', format: 'xls' });
    expect(Object.keys(empty.json().errors).sort()).toEqual(['format', 'page_ids', 'title']);
    expect(await db().select({ n: count() }).from(monRequests).where(eq(monRequests.projectId, s.project.id))).toEqual([
      { n: 1 },
    ]);
  });

  it('shows the queue to stewards only; other people see only the titles of pages they may see', async () => {
    const s = await setup();
    const request = await file(s, [s.falls.id, s.clabsi.id]);
    expect((await s.viewer.get(`${s.base}/requests?scope=queue`)).statusCode).toBe(403);
    const queue = await s.dataEntry.get(`${s.base}/requests?scope=queue`);
    expect(queue.statusCode).toBe(200);
    expect(queue.json().requests.map((r: { id: number }) => r.id)).toEqual([request.id]);
    expect((await s.admin.get(`${s.base}/requests/stewards`)).json().people).toEqual([
      { id: s.people.admin.id, name: 'Ada Admin' },
      { id: s.people.dataEntry.id, name: 'Dana Entry' },
    ]);

    // CLABSI becomes restricted: the viewer still sees the request, with the page only counted.
    await db().update(monPages).set({ restricted: true }).where(eq(monPages.id, s.clabsi.id));
    const detail = await s.viewer.get(`${s.base}/requests/${request.id}`);
    expect(detail.json()).toMatchObject({ pages: [{ title: 'Falls with injury' }], other_page_count: 1 });
    expect(detail.body).not.toContain('CLABSI');

    // Another requester's request is 404 to a viewer (and to a page owner).
    const owner = await ctx.signedIn(s.people.owner);
    const ownRequest = await owner.post(`${s.base}/requests`, valid([s.falls.id]));
    expect((await s.viewer.get(`${s.base}/requests/${ownRequest.json().id}`)).statusCode).toBe(404);
    expect((await owner.get(`${s.base}/requests/${request.id}`)).statusCode).toBe(404);
    expect((await s.dataEntry.get(`${s.base}/requests/${request.id}`)).json().abilities).toEqual({
      steward: true,
      cancel: false,
      comment: true,
      upload: true,
    });
  });

  it('moves through the allowed statuses only, needs a response to reject, and rings the requester', async () => {
    const s = await setup();
    const request = await file(s);
    const url = `${s.base}/requests/${request.id}`;

    const refused = await s.admin.patch(url, { status: 'delivered' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('A submitted request cannot be moved to delivered.');

    const triaged = await s.admin.patch(url, { status: 'triaged', assignee_id: s.people.dataEntry.id });
    expect(triaged.statusCode).toBe(200);
    expect(triaged.json()).toMatchObject({
      status: 'triaged',
      assignee: { id: s.people.dataEntry.id, name: 'Dana Entry' },
      transitions: ['in_progress', 'rejected'],
    });
    expect(await lastAudit()).toMatchObject({
      action: 'monitoring.request_updated',
      actorUserId: s.people.admin.id,
      data: { fields: ['status', 'assignee_id'], status: { from: 'submitted', to: 'triaged' } },
    });
    expect(await bells(s.people.viewer.id)).toEqual([
      { message: 'Your data request "Falls by ward" is now triaged.', link: expect.stringContaining('?request=') },
    ]);
    expect(await bells(s.people.dataEntry.id)).toContainEqual(
      expect.objectContaining({ message: 'You were assigned the data request "Falls by ward".' }),
    );

    const notSteward = await s.admin.patch(url, { assignee_id: s.people.viewer.id });
    expect(notSteward.statusCode).toBe(400);
    expect(notSteward.json().errors.assignee_id).toEqual(['Choose one of the data stewards.']);

    const noReason = await s.dataEntry.patch(url, { status: 'rejected' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().errors.response).toEqual([REJECT_NEEDS_RESPONSE_MESSAGE]);

    expect((await s.dataEntry.patch(url, { status: 'in_progress' })).json().transitions).toEqual([
      'delivered',
      'rejected',
    ]);
    // The requester may only cancel.
    const requesterEdit = await s.viewer.patch(url, { status: 'delivered' });
    expect(requesterEdit.statusCode).toBe(403);
    const delivered = await s.dataEntry.patch(url, { status: 'delivered', response: 'Sent by email.' });
    expect(delivered.json()).toMatchObject({
      status: 'delivered',
      response: 'Sent by email.',
      transitions: ['closed'],
    });
    expect(delivered.json().delivered_at).not.toBeNull();
    const late = await s.viewer.patch(url, { status: 'cancelled' });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('A delivered request can no longer be cancelled.');
    expect((await s.dataEntry.patch(url, { status: 'closed' })).json().status).toBe('closed');
    expect((await s.dataEntry.patch(url, { status: 'in_progress' })).statusCode).toBe(409);
    expect((await bells(s.people.viewer.id)).map((b) => b.message)).toEqual([
      'Your data request "Falls by ward" is now triaged.',
      'Your data request "Falls by ward" is now in progress.',
      'Your data request "Falls by ward" is now delivered.',
      'Your data request "Falls by ward" is now closed.',
    ]);

    const other = await file(s);
    const rejected = await s.admin.patch(`${s.base}/requests/${other.id}`, {
      status: 'rejected',
      response: 'Ask the registry instead.',
    });
    expect(rejected.json()).toMatchObject({ status: 'rejected', transitions: [] });
  });

  it('lets the requester cancel while it is open; the stewards hear of it', async () => {
    const s = await setup();
    const request = await file(s);
    const cancelled = await s.viewer.patch(`${s.base}/requests/${request.id}`, { status: 'cancelled' });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', transitions: [], abilities: { cancel: false } });
    expect(await bells(s.people.dataEntry.id)).toContainEqual(
      expect.objectContaining({ message: 'The data request "Falls by ward" was cancelled by its requester.' }),
    );
    // A steward may not cancel someone else's request.
    const second = await file(s);
    const byStewards = await s.admin.patch(`${s.base}/requests/${second.id}`, { status: 'cancelled' });
    expect(byStewards.statusCode).toBe(409);
  });

  it('keeps a comment thread between the requester and the stewards', async () => {
    const s = await setup();
    const request = await file(s);
    const asked = await s.viewer.post(`${s.base}/requests/${request.id}/comments`, { body: 'Any news?' });
    expect(asked.statusCode).toBe(201);
    expect(asked.json()).toMatchObject({ body: 'Any news?', author: { name: 'Vera Viewer' } });
    expect(await bells(s.people.admin.id)).toContainEqual(
      expect.objectContaining({ message: 'New comment on the data request "Falls by ward".' }),
    );
    await s.dataEntry.post(`${s.base}/requests/${request.id}/comments`, { body: 'Next week.' });
    expect(await bells(s.people.viewer.id)).toEqual([
      expect.objectContaining({ message: 'New comment on the data request "Falls by ward".' }),
    ]);
    const empty = await s.viewer.post(`${s.base}/requests/${request.id}/comments`, { body: ' ' });
    expect(empty.json().errors.body).toEqual(['Write a comment.']);
    const detail = (await s.viewer.get(`${s.base}/requests/${request.id}`)).json();
    expect(detail.comment_count).toBe(2);
    expect(detail.comments.map((c: { body: string }) => c.body)).toEqual(['Any news?', 'Next week.']);
    expect(await lastAudit()).toMatchObject({ action: 'monitoring.request_commented' });
  });

  it('delivers a file: an in-progress request becomes delivered, the requester downloads it', async () => {
    const s = await setup();
    const request = await file(s);
    const url = `${s.base}/requests/${request.id}`;
    expect((await s.viewer.get(`${url}/file`)).statusCode).toBe(404);
    await s.admin.patch(url, { status: 'in_progress' });
    const data = Buffer.from('ward,falls\nA,3\n');
    const upload = multipart({}, { name: 'falls by ward [Q1].csv', data, type: 'text/csv' });
    const nothing = multipart({ note: 'no file' });
    const noFile = await s.dataEntry.post(`${url}/file`, nothing.payload, nothing.headers);
    expect(noFile.statusCode, noFile.body).toBe(400);
    const sent = await s.dataEntry.post(`${url}/file`, upload.payload, upload.headers);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({
      status: 'delivered',
      delivered_file: { name: 'falls by ward [Q1].csv', size: data.length },
    });
    expect(await lastAudit()).toMatchObject({ action: 'monitoring.request_file_delivered' });
    expect((await bells(s.people.viewer.id)).at(-1)?.message).toBe(
      'Your data request "Falls by ward" is now delivered: the file is ready to download.',
    );
    expect((await s.viewer.get(`${s.base}/requests?scope=mine`)).json().requests[0].delivered_file).toEqual({
      name: 'falls by ward [Q1].csv',
      size: data.length,
    });

    const download = await s.viewer.get(`${url}/file`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toBe('attachment; filename="falls by ward _Q1_.csv"');
    expect(download.rawPayload.equals(data)).toBe(true);
    const owner = await ctx.signedIn(s.people.owner);
    expect((await owner.get(`${url}/file`)).statusCode).toBe(404);
  });
});
