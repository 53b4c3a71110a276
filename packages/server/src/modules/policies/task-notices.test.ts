import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { TEST_PASSWORD } from '../../../test/factories.js';
import { postDraft, ROUND_PEOPLE, workflowProject } from '../../../test/workflow-kit.js';
import { emailLog, notifications } from '../../db/schema/index.js';

describe('task notices resolve themselves', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const s = await workflowProject(db());
    const base = `/api/projects/${s.project.id}/policy-management`;
    const as = await ctx.signedInAll(s.people, ...ROUND_PEOPLE);
    type Agent = (typeof as)['admin'];
    const act = async (who: Agent, id: number, step: string, body: Record<string, unknown> = {}) => {
      const answer = await who.post(`${base}/documents/${id}/${step}`, body);
      expect(answer.statusCode, answer.body).toBe(200);
    };
    /** The unread messages of the person's bell in the project. */
    const bell = async (who: Agent) =>
      (
        (await who.get(`/api/projects/${s.project.id}/notifications/`)).json() as {
          notifications: { message: string }[];
        }
      ).notifications.map((n) => n.message);
    const task = async (userId: number, kind: string) =>
      db()
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, userId), eq(notifications.taskKind, kind)));
    return { ...s, base, as, act, bell, task };
  }

  it('a review, a signature and a reading leave the bell once done, by the person or by the round', async () => {
    const s = await setup();
    const doc = await postDraft(s.as.author, s.base, 'Falls prevention', s.nursing.id);
    await s.act(s.as.author, doc.id, 'send-to-review');
    expect(await s.bell(s.as.reviewer1)).toEqual([expect.stringContaining('asks you to review "Falls prevention"')]);
    expect(await s.bell(s.as.reviewer2)).toHaveLength(1);
    // Written with the step: the notice and its email are there the moment the step answered.
    expect(
      await db().select().from(emailLog).where(eq(emailLog.subject, 'Policy to review: Falls prevention')),
    ).toHaveLength(2);

    // Reviewer 1 answers: their notice is done, reviewer 2's still waits.
    await s.act(s.as.reviewer1, doc.id, 'review', { decision: 'approve' });
    expect(await s.bell(s.as.reviewer1)).toEqual([]);
    expect((await s.task(s.people.reviewer1.id, 'policy_review'))[0]!.doneAt).not.toBeNull();
    expect(await s.bell(s.as.reviewer2)).toHaveLength(1);
    await s.act(s.as.reviewer2, doc.id, 'review', { decision: 'approve' });
    expect(await s.bell(s.as.reviewer2)).toEqual([]);

    // Both signers are asked (every signature is needed by default): each task ends with that signature.
    expect(await s.bell(s.as.signer2)).toEqual([expect.stringContaining('waits for your signature')]);
    await s.act(s.as.signer1, doc.id, 'sign', { version_id: doc.draft_version.id, password: TEST_PASSWORD });
    expect((await s.bell(s.as.signer1)).filter((m) => m.includes('signature'))).toEqual([]);
    expect(await s.bell(s.as.signer2)).toEqual([expect.stringContaining('waits for your signature')]);
    await s.act(s.as.signer2, doc.id, 'sign', { version_id: doc.draft_version.id, password: TEST_PASSWORD });
    expect(await s.bell(s.as.signer2)).toEqual([]);

    // Published: the reader is asked to read it, until they confirm.
    expect(await s.bell(s.as.reader)).toEqual([expect.stringContaining('Please read it')]);
    await s.act(s.as.reader, doc.id, 'attest', { version_id: doc.draft_version.id });
    expect(await s.bell(s.as.reader)).toEqual([]);
    const [reading] = await s.task(s.people.reader.id, 'policy_reading');
    expect(reading!.doneAt).not.toBeNull();
    // Done is not read: the notice stays in the person's history, unread but no longer asking.
    expect(reading!.readAt).toBeNull();
  });

  it('withdrawing the version ends every open task of its round', async () => {
    const s = await setup();
    const doc = await postDraft(s.as.author, s.base, 'Restraint use', s.nursing.id);
    await s.act(s.as.author, doc.id, 'send-to-review');
    await s.act(s.as.author, doc.id, 'withdraw', { comment: 'Wrong attachment' });
    const open = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.taskKind, 'policy_review'), isNull(notifications.doneAt)));
    expect(open.filter((n) => n.projectId === s.project.id)).toEqual([]);
    // What is left is the news that nothing waits for them, not the request to review.
    for (const reviewer of [s.as.reviewer1, s.as.reviewer2]) {
      expect(await s.bell(reviewer)).toEqual([expect.stringContaining('nothing waits for you on it now')]);
    }
  });

  it('a step that fails writes no notice and no email', async () => {
    const s = await setup();
    const doc = await postDraft(s.as.author, s.base, 'Sharps disposal', s.nursing.id);
    await s.act(s.as.author, doc.id, 'send-to-review');
    // A wrong password refuses the signature step: the transaction rolls back with whatever it would have said.
    const before = await db().select().from(emailLog);
    const refused = await s.as.signer1.post(`${s.base}/documents/${doc.id}/sign`, {
      version_id: doc.draft_version.id,
      password: 'not the password',
    });
    expect(refused.statusCode).not.toBe(200);
    expect(await db().select().from(emailLog)).toHaveLength(before.length);
  });
});
