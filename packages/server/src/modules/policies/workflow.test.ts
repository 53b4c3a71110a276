import { createHash } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TEST_APP_KEY, useTestApp } from '../../../test/app.js';
import { TEST_PASSWORD } from '../../../test/factories.js';
import { postDraft, ROUND_PEOPLE, workflowProject } from '../../../test/workflow-kit.js';
import {
  auditEvents,
  notifications,
  policyAttestations,
  policyDepartmentRoles,
  policyDocuments,
  policySignatures,
  policyVersions,
  policyWorkflowEvents,
  policyWorkflowRequests,
  storedFiles,
  users,
} from '../../db/schema/index.js';
import { encrypt } from '../../lib/crypto.js';
import { currentCode, newTotpSecret } from '../../lib/totp.js';
import type { PolicyActor } from '../../policies/policy-management.js';
import { afterDepartmentRolesChanged } from './workflow.service.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const PASSWORD = 'Vq9!rT4#mLp2$Xz8';

describe('policy workflow', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const s = await workflowProject(db());
    const base = `/api/projects/${s.project.id}/policy-management`;
    const as = await ctx.signedInAll(s.people, ...ROUND_PEOPLE);
    type Agent = (typeof as)['admin'];
    const create = (title: string, departmentId: number | null = s.nursing.id, who: Agent = as.author) =>
      postDraft(who, base, title, departmentId, `<p>${title}: what to do.</p>`);
    const flow = (who: Agent, id: number) => who.get(`${base}/documents/${id}/workflow`);
    const act = (who: Agent, id: number, step: string, body: Record<string, unknown> = {}) =>
      who.post(`${base}/documents/${id}/${step}`, body);
    const sign = (who: Agent, id: number, versionId: number, password = PASSWORD) =>
      act(who, id, 'sign', { version_id: versionId, password });
    /** Draft -> in review -> approved by both reviewers: pending signature. */
    const toSignature = async (id: number) => {
      expect((await act(as.author, id, 'send-to-review')).statusCode).toBe(200);
      for (const reviewer of [as.reviewer1, as.reviewer2]) {
        const answer = await act(reviewer, id, 'review', { decision: 'approve' });
        expect(answer.statusCode, answer.body).toBe(200);
      }
    };
    return { ...s, base, as, create, flow, act, sign, toSignature };
  }

  const auditCount = async (action: string) =>
    (
      await db()
        .select({ n: count() })
        .from(auditEvents)
        .where(eq(auditEvents.action, `policy.${action}`))
    )[0]!.n;

  it('walks a policy from draft through review, signature and publication to every reader attesting', async () => {
    const s = await setup();
    const doc = await s.create('Hand hygiene');
    const versionId = doc.draft_version.id;
    // A reviewer sees nothing of a draft before being asked.
    expect((await s.as.reviewer1.get(`${s.base}/documents/${doc.id}`)).statusCode).toBe(404);

    const start = (await s.flow(s.as.author, doc.id)).json();
    expect(start.abilities).toMatchObject({ send_to_review: true, approve: false, sign: false });
    expect(start.problems).toEqual([]);

    const sent = await s.act(s.as.author, doc.id, 'send-to-review', { comment: 'Please check the glove part.' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().working_version).toMatchObject({ state: 'in_review', round: 1 });
    expect(
      sent.json().reviews.map((r: { person: { name: string }; status: string }) => [r.person.name, r.status]),
    ).toEqual([
      ['Rob Reviewer', 'pending'],
      ['Ruth Reviewer', 'pending'],
    ]);
    expect(ctx.mailbox.last(s.people.reviewer1.email)?.subject).toBe('Policy to review: Hand hygiene');
    const bell = await db().select().from(notifications).where(eq(notifications.userId, s.people.reviewer2.id));
    expect(bell[0]!.message).toContain('asks you to review "Hand hygiene" version 1. "Please check the glove part."');

    // Now the reviewer sees the draft and has a task.
    const seen = (await s.as.reviewer1.get(`${s.base}/documents/${doc.id}`)).json();
    expect(seen.draft_version.content).toBe('<p>Hand hygiene: what to do.</p>');
    expect((await s.as.reviewer1.get(`${s.base}/my-tasks`)).json().to_review.map((t: { id: number }) => t.id)).toEqual([
      doc.id,
    ]);
    expect((await s.act(s.as.author, doc.id, 'review', { decision: 'approve' })).statusCode).toBe(403);

    expect((await s.act(s.as.reviewer1, doc.id, 'review', { decision: 'approve' })).statusCode).toBe(200);
    expect((await s.act(s.as.reviewer1, doc.id, 'review', { decision: 'approve' })).statusCode).toBe(409);
    const noComment = await s.act(s.as.reviewer2, doc.id, 'review', { decision: 'request_changes', comment: ' ' });
    expect(noComment.statusCode).toBe(400);
    expect(noComment.json().errors.comment).toEqual(['Say what needs to change.']);
    const back = await s.act(s.as.reviewer2, doc.id, 'review', {
      decision: 'request_changes',
      comment: 'Add the glove guidance.',
    });
    expect(back.json().working_version.state).toBe('draft');
    const sentBack = (await s.as.author.get(`${s.base}/my-tasks`)).json().sent_back;
    expect(sentBack).toMatchObject([{ id: doc.id, comment: 'Add the glove guidance.' }]);
    expect(ctx.mailbox.last(s.people.author.email)?.subject).toBe('Changes requested: Hand hygiene');

    // The author changes the text and sends it again: a new round asks both reviewers again.
    const content = '<p>Hand hygiene: wash, then gloves.</p>';
    const saved = await s.as.author.put(`${s.base}/documents/${doc.id}/draft`, {
      content,
      base_revision: doc.draft_version.revision,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await s.toSignature(doc.id);
    const waiting = (await s.flow(s.as.signer1, doc.id)).json();
    expect(waiting.working_version).toMatchObject({ state: 'pending_signature', round: 2 });
    expect(waiting.signature_requests.map((r: { person: { name: string } }) => r.person.name)).toEqual([
      'Sam Signer',
      'Sara Signer',
    ]);
    expect(waiting.abilities).toMatchObject({ sign: true, decline: true, approve: false });
    const locked = await s.as.author.put(`${s.base}/documents/${doc.id}/draft`, {
      content: '<p>x</p>',
      base_revision: 1,
    });
    expect(locked.statusCode).toBe(409);

    const wrong = await s.sign(s.as.signer1, doc.id, versionId, 'not-my-password');
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.password).toEqual(['The password is incorrect.']);
    const stale = await s.sign(s.as.signer1, doc.id, versionId + 1000);
    expect(stale.statusCode).toBe(409);
    const first = await s.sign(s.as.signer1, doc.id, versionId);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().working_version.state).toBe('pending_signature');
    const [signature] = first.json().signatures;
    expect(signature).toMatchObject({
      signer: { name: 'Sam Signer' },
      method: 'password',
      valid: true,
      ip: '127.0.0.1',
      version: 1,
      content_sha256: sha256(content),
    });

    const published = await s.sign(s.as.signer2, doc.id, versionId);
    expect(published.statusCode, published.body).toBe(200);
    const today = ctx.clock.now().toISOString().slice(0, 10);
    expect(published.json()).toMatchObject({ status: 'published', working_version: null });
    expect(published.json().current_version).toMatchObject({ id: versionId, effective_on: today });
    expect(published.json().published_signatures).toHaveLength(2);
    const [row] = await db().select().from(policyDocuments).where(eq(policyDocuments.id, doc.id));
    expect(row).toMatchObject({
      status: 'published',
      currentVersionId: versionId,
      draftVersionId: null,
      effectiveOn: today,
    });
    expect(row!.nextReviewOn).toBe(`${Number(today.slice(0, 4)) + 1}${today.slice(4)}`.replace('-02-29', '-02-28'));
    expect(await auditCount('sent_to_review')).toBe(2);
    expect(await auditCount('review_approved')).toBe(3);
    expect(await auditCount('changes_requested')).toBe(1);
    expect(await auditCount('document_signed')).toBe(2);
    expect(await auditCount('document_published')).toBe(1);

    // Readers get a read task; attesting twice records once; a stale version is refused.
    expect(ctx.mailbox.last(s.people.reader.email)?.subject).toBe('Policy to read: Hand hygiene');
    const toRead = (await s.as.reader.get(`${s.base}/my-tasks`)).json().to_read;
    expect(toRead).toMatchObject([{ id: doc.id, version: 1, overdue: false }]);
    // Due 30 days after publication; overdue the day after, on the app's clock.
    const dueOn = new Date(new Date(toRead[0].since).getTime() + 30 * 86_400_000).toISOString().slice(0, 10);
    expect(toRead[0].due_on).toBe(dueOn);
    const readNow = ctx.clock.now();
    ctx.clock.advance(31 * 86_400_000);
    // A month on, the reader signs in again (the session of today has ended).
    const later = ctx.agent();
    expect((await later.login(s.people.reader.email, TEST_PASSWORD)).statusCode).toBe(200);
    const late = await later.get(`${s.base}/my-tasks`);
    ctx.clock.set(readNow);
    expect(late.json().to_read).toMatchObject([{ id: doc.id, due_on: dueOn, overdue: true }]);
    const attested = await s.act(s.as.reader, doc.id, 'attest', { version_id: versionId });
    expect(attested.statusCode, attested.body).toBe(200);
    expect(attested.json().attestation).toMatchObject({ version_id: versionId, required: true });
    expect(attested.json().attestation.attested_at).not.toBeNull();
    expect((await s.act(s.as.reader, doc.id, 'attest', { version_id: versionId })).statusCode).toBe(200);
    expect(await db().select().from(policyAttestations)).toHaveLength(1);
    expect((await s.as.reader.get(`${s.base}/my-tasks`)).json().to_read).toEqual([]);

    // A new version: once published, readers must attest again; the first attestation stays as history.
    expect((await s.as.author.post(`${s.base}/documents/${doc.id}/new-version`)).statusCode).toBe(200);
    const v2 = (await s.as.author.get(`${s.base}/documents/${doc.id}`)).json().draft_version;
    expect((await s.act(s.as.reader, doc.id, 'attest', { version_id: v2.id })).statusCode).toBe(409);
    await s.toSignature(doc.id);
    await s.sign(s.as.signer1, doc.id, v2.id);
    const republished = await s.sign(s.as.signer2, doc.id, v2.id);
    expect(republished.json().current_version.id).toBe(v2.id);
    const stillOld = await s.act(s.as.reader, doc.id, 'attest', { version_id: versionId });
    expect(stillOld.statusCode).toBe(409);
    expect(stillOld.json().message).toContain('read version 2');
    expect((await s.as.reader.get(`${s.base}/my-tasks`)).json().to_read).toMatchObject([{ id: doc.id, version: 2 }]);
    const [old] = await db().select().from(policyVersions).where(eq(policyVersions.id, versionId));
    expect(old!.state).toBe('superseded');
    expect((await s.flow(s.as.reader, doc.id)).json().attestation).toMatchObject({
      version_id: v2.id,
      attested_at: null,
    });
  });

  it('refuses every step its state does not allow, and names what a department lacks', async () => {
    const s = await setup();
    const doc = await s.create('Isolation');
    const v = doc.draft_version.id;
    const refused = async (who: (typeof s.as)['admin'], step: string, body: Record<string, unknown>, status = 409) => {
      const answer = await s.act(who, doc.id, step, body);
      expect(answer.statusCode, `${step}: ${answer.body}`).toBe(status);
    };
    // Draft.
    await refused(s.as.reviewer1, 'review', { decision: 'approve' }, 404);
    await refused(s.as.signer1, 'sign', { version_id: v, password: PASSWORD }, 404);
    await refused(s.as.author, 'withdraw', { comment: 'why' });
    // In review.
    await s.act(s.as.author, doc.id, 'send-to-review');
    await refused(s.as.author, 'send-to-review', {});
    // Signers are not asked yet, so they do not even see the draft; an admin sees it but may not sign in review.
    await refused(s.as.signer1, 'sign', { version_id: v, password: PASSWORD }, 404);
    await refused(s.as.admin, 'sign', { version_id: v, password: PASSWORD });
    await refused(s.as.admin, 'decline', { version_id: v, comment: 'no' });
    await refused(s.as.author, 'withdraw', {}, 400);
    // Pending signature.
    await s.act(s.as.reviewer1, doc.id, 'review', { decision: 'approve' });
    await s.act(s.as.reviewer2, doc.id, 'review', { decision: 'approve' });
    await refused(s.as.author, 'send-to-review', {});
    await refused(s.as.reviewer1, 'review', { decision: 'approve' });
    await refused(s.as.reviewer1, 'review', { decision: 'request_changes', comment: 'late' });
    await refused(s.as.admin, 'sign', { version_id: v, password: PASSWORD }, 403);
    // Declined: back to draft, and the signer's comment reaches the author.
    const declined = await s.act(s.as.signer2, doc.id, 'decline', { version_id: v, comment: 'Wrong contact number.' });
    expect(declined.json().working_version.state).toBe('draft');
    expect(ctx.mailbox.last(s.people.author.email)?.text).toContain('Wrong contact number.');
    // Published: nothing in progress.
    await s.toSignature(doc.id);
    await s.sign(s.as.signer1, doc.id, v);
    await s.sign(s.as.signer2, doc.id, v);
    await refused(s.as.author, 'send-to-review', {});
    await refused(s.as.author, 'withdraw', { comment: 'x' });
    // Archived.
    expect((await s.as.admin.post(`${s.base}/documents/${doc.id}/archive`)).statusCode).toBe(200);
    await refused(s.as.reader, 'attest', { version_id: v });

    // Departments without reviewers, or no department at all.
    const pharmacy = await s.create('Drug storage', s.pharmacy.id);
    const noReviewers = await s.act(s.as.author, pharmacy.id, 'send-to-review');
    expect(noReviewers.statusCode).toBe(409);
    expect(noReviewers.json().message).toBe('Pharmacy has no reviewers. A policy administrator can assign reviewers.');
    // The workflow says why before anyone tries, and whether the reader may fix it (the author may not, an admin may).
    const pharmacyRef = { id: s.pharmacy.id, name: 'Pharmacy' };
    expect((await s.flow(s.as.author, pharmacy.id)).json().problems).toEqual([
      { kind: 'no_reviewers', message: 'Pharmacy has no reviewers.', department: pharmacyRef, can_fix: false },
      {
        kind: 'no_signers',
        message: 'Pharmacy has no signer other than the author of this version.',
        department: pharmacyRef,
        can_fix: false,
      },
    ]);
    expect(
      (await s.flow(s.as.admin, pharmacy.id))
        .json()
        .problems.map((p: { kind: string; can_fix: boolean }) => [p.kind, p.can_fix]),
    ).toEqual([
      ['no_reviewers', true],
      ['no_signers', true],
    ]);
    const loose = await s.create('Loose', null);
    expect((await s.flow(s.as.author, loose.id)).json().problems).toEqual([
      {
        kind: 'no_department',
        message: 'This policy has no department: its reviewers, signers and readers come from there.',
        department: null,
        can_fix: true,
      },
    ]);
    expect((await s.act(s.as.author, loose.id, 'send-to-review')).json().message).toBe(
      "This policy has no department: its reviewers, signers and readers come from there. Choose one in the policy's Settings.",
    );
    // Moving a document in review to another department is refused.
    const moving = await s.create('Moving');
    await s.act(s.as.author, moving.id, 'send-to-review');
    const moved = await s.as.author.patch(`${s.base}/documents/${moving.id}`, { department_id: s.pharmacy.id });
    expect(moved.statusCode).toBe(409);
    expect(moved.json().errors.department_id).toHaveLength(1);
  });

  it('never lets an author sign their own version unless the project allows it', async () => {
    const s = await setup();
    await db()
      .insert(policyDepartmentRoles)
      .values({ projectId: s.project.id, departmentId: s.nursing.id, userId: s.people.admin.id, role: 'signer' });
    const own = await s.create('Own work', s.nursing.id, s.as.admin);
    await s.toSignature(own.id);
    const asked = (await s.flow(s.as.admin, own.id)).json();
    expect(asked.signature_requests.map((r: { person: { name: string } }) => r.person.name)).toEqual([
      'Sam Signer',
      'Sara Signer',
    ]);
    expect(asked.abilities.sign).toBe(false);
    expect((await s.sign(s.as.admin, own.id, own.draft_version.id)).statusCode).toBe(403);

    const settings = await s.as.admin.put(`${s.base}/workflow-settings`, {
      default_review_interval_months: 24,
      signatures_required: 'one',
      allow_self_signing: true,
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const allowed = await s.create('Own work allowed', s.nursing.id, s.as.admin);
    await s.toSignature(allowed.id);
    const signed = await s.sign(s.as.admin, allowed.id, allowed.draft_version.id);
    expect(signed.statusCode, signed.body).toBe(200);
    // One signature is enough now: published, the other signers' requests withdrawn.
    expect(signed.json().status).toBe('published');
    const requests = await db()
      .select()
      .from(policyWorkflowRequests)
      .where(and(eq(policyWorkflowRequests.documentId, allowed.id), eq(policyWorkflowRequests.kind, 'signature')));
    expect(requests.map((r) => r.status).sort()).toEqual(['signed', 'withdrawn', 'withdrawn']);
    // New documents take the project's default review interval.
    const [row] = await db().select().from(policyDocuments).where(eq(policyDocuments.id, allowed.id));
    expect(row!.reviewIntervalMonths).toBe(24);
    const bad = await s.as.admin.put(`${s.base}/workflow-settings`, {
      default_review_interval_months: 0,
      signatures_required: 'most',
      allow_self_signing: true,
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['default_review_interval_months', 'signatures_required']);
  });

  it('records two signers signing at the same moment once each, and publishes once', async () => {
    const s = await setup();
    const doc = await s.create('Falls');
    await s.toSignature(doc.id);
    const both = await Promise.all([
      s.sign(s.as.signer1, doc.id, doc.draft_version.id),
      s.sign(s.as.signer2, doc.id, doc.draft_version.id),
      s.sign(s.as.signer1, doc.id, doc.draft_version.id),
    ]);
    expect(both.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    const signatures = await db().select().from(policySignatures).where(eq(policySignatures.documentId, doc.id));
    expect(signatures.map((x) => x.signerId).sort()).toEqual([s.people.signer1.id, s.people.signer2.id].sort());
    const published = await db()
      .select()
      .from(policyWorkflowEvents)
      .where(and(eq(policyWorkflowEvents.documentId, doc.id), eq(policyWorkflowEvents.action, 'published')));
    expect(published).toHaveLength(1);
  });

  it('holds one database connection at a time while signing (the password is checked before the transaction)', async () => {
    const s = await setup();
    const doc = await s.create('Falls');
    await s.toSignature(doc.id);
    // A signing that held its transaction's connection while it checked the password on another one needed two at
    // once: as many signings as the pool has connections then waited for each other until the pool gave up.
    const pool = ctx.db.handle.pool;
    let held = 0;
    let most = 0;
    const acquired = () => {
      held += 1;
      most = Math.max(most, held);
    };
    const released = () => {
      held -= 1;
    };
    pool.on('acquire', acquired);
    pool.on('release', released);
    try {
      expect((await s.sign(s.as.signer1, doc.id, doc.draft_version.id)).statusCode).toBe(200);
    } finally {
      pool.off('acquire', acquired);
      pool.off('release', released);
    }
    expect(most).toBe(1);
  });

  it('voids signatures when a version goes back to draft, so changed content needs new ones', async () => {
    const s = await setup();
    const doc = await s.create('Restraints');
    await s.toSignature(doc.id);
    await s.sign(s.as.signer1, doc.id, doc.draft_version.id);
    const withdrawn = await s.act(s.as.author, doc.id, 'withdraw', { comment: 'Legal asked for a change.' });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(withdrawn.json().signatures).toMatchObject([
      { valid: false, void_reason: expect.stringContaining('Legal') },
    ]);
    expect(ctx.mailbox.last(s.people.signer2.email)?.subject).toBe('Policy withdrawn: Restraints');
    const revision = (await s.as.author.get(`${s.base}/documents/${doc.id}`)).json().draft_version.revision;
    await s.as.author.put(`${s.base}/documents/${doc.id}/draft`, {
      content: '<p>Changed.</p>',
      base_revision: revision,
    });
    await s.toSignature(doc.id);
    const again = (await s.sign(s.as.signer1, doc.id, doc.draft_version.id)).json();
    expect(again.signatures.map((x: { valid: boolean }) => x.valid)).toEqual([true, false]);
    expect(again.signatures[0].content_sha256).toBe(sha256('<p>Changed.</p>'));
    expect(again.working_version.state).toBe('pending_signature');
  });

  it('signs with an authenticator code, accepted once', async () => {
    const s = await setup();
    const secret = newTotpSecret();
    await db()
      .update(users)
      .set({ twoFactorSecret: encrypt(secret, TEST_APP_KEY), twoFactorConfirmedAt: new Date() })
      .where(eq(users.id, s.people.signer1.id));
    const a = await s.create('Sepsis');
    const b = await s.create('Stroke');
    await s.toSignature(a.id);
    await s.toSignature(b.id);
    const code = currentCode(secret, ctx.clock.now());
    const signed = await s.act(s.as.signer1, a.id, 'sign', { version_id: a.draft_version.id, code });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json().signatures[0].method).toBe('totp');
    const replay = await s.act(s.as.signer1, b.id, 'sign', { version_id: b.draft_version.id, code });
    expect(replay.statusCode).toBe(422);
    expect(replay.json().errors.code[0]).toMatch(/already used/);
    const both = await s.act(s.as.signer1, b.id, 'sign', { version_id: b.draft_version.id, code, password: PASSWORD });
    expect(both.statusCode).toBe(400);
    const noTwoFactor = await s.act(s.as.signer2, b.id, 'sign', { version_id: b.draft_version.id, code: '123456' });
    expect(noTwoFactor.json().errors.code[0]).toMatch(/not set up/);
  });

  it('lets department changes reach open rounds: new people are asked, removed ones released', async () => {
    const s = await setup();
    const doc = await s.create('Pressure ulcers');
    await s.act(s.as.author, doc.id, 'send-to-review');
    await s.act(s.as.reviewer1, doc.id, 'review', { decision: 'approve' });
    const actor: PolicyActor = {
      userId: s.people.admin.id,
      projectId: s.project.id,
      isSuperadmin: false,
      role: 'policy_admin',
      rules: [],
      ip: '127.0.0.1',
      requestId: 'test',
    };
    // Ruth leaves the reviewers: Rob's approval is all that is asked now, so the version moves to signature.
    const notices = await db().transaction(async (tx) => {
      await tx
        .delete(policyDepartmentRoles)
        .where(
          and(eq(policyDepartmentRoles.userId, s.people.reviewer2.id), eq(policyDepartmentRoles.role, 'reviewer')),
        );
      return afterDepartmentRolesChanged(tx, actor, s.nursing.id, ctx.clock.now());
    });
    expect(notices.find((n) => n.subject.startsWith('Policy to sign'))?.userIds.sort()).toEqual(
      [s.people.signer1.id, s.people.signer2.id].sort(),
    );
    const state = (await s.flow(s.as.author, doc.id)).json();
    expect(state.working_version.state).toBe('pending_signature');
    expect(state.reviews.map((r: { status: string }) => r.status)).toEqual(['approved', 'withdrawn']);
    expect((await s.as.reviewer2.get(`${s.base}/my-tasks`)).json().to_review).toEqual([]);
    // A new signer joins: asked at once.
    const added = await db().transaction(async (tx) => {
      await tx
        .insert(policyDepartmentRoles)
        .values({ projectId: s.project.id, departmentId: s.nursing.id, userId: s.people.admin.id, role: 'signer' });
      return afterDepartmentRolesChanged(tx, actor, s.nursing.id, ctx.clock.now());
    });
    expect(added[0]).toMatchObject({ userIds: [s.people.admin.id] });
    expect((await s.as.admin.get(`${s.base}/my-tasks`)).json().to_sign.map((t: { id: number }) => t.id)).toEqual([
      doc.id,
    ]);
  });

  it("shows reviewers the working version's images once asked, and readers never", async () => {
    const s = await setup();
    const [file] = await db()
      .insert(storedFiles)
      .values({ projectId: s.project.id, contentType: 'image/png', size: 3, sha256: 'x', data: Buffer.from('png') })
      .returning();
    const url = `${s.base}/files/${file!.id}`;
    const doc = await s.create('With a picture');
    await s.as.author.put(`${s.base}/documents/${doc.id}/draft`, {
      content: `<p><img src="${url}"></p>`,
      base_revision: 0,
    });
    expect((await s.as.reviewer1.get(url)).statusCode).toBe(404);
    await s.act(s.as.author, doc.id, 'send-to-review');
    expect((await s.as.reviewer1.get(url)).statusCode).toBe(200);
    expect((await s.as.reader.get(url)).statusCode).toBe(404);
  });

  it('guards every call: 401 signed out, 403 without a role or the right one, 404 outside; nothing changes', async () => {
    const s = await setup();
    const doc = await s.create('Guarded');
    const v = doc.draft_version.id;
    const d = `${s.base}/documents/${doc.id}`;
    const calls: [string, string, unknown, 'edit' | 'admin' | 'any' | 'sign' | 'author'][] = [
      ['get', `${d}/workflow`, undefined, 'any'],
      ['post', `${d}/send-to-review`, {}, 'edit'],
      ['post', `${d}/withdraw`, { comment: 'x' }, 'edit'],
      ['post', `${d}/review`, { decision: 'approve' }, 'any'],
      ['post', `${d}/sign`, { version_id: v, password: PASSWORD }, 'any'],
      ['post', `${d}/decline`, { version_id: v, comment: 'x' }, 'any'],
      ['post', `${d}/attest`, { version_id: v }, 'any'],
      ['get', `${s.base}/my-tasks`, undefined, 'any'],
      ['get', `${s.base}/reviews/due`, undefined, 'any'],
      ['get', `${s.base}/workflow-settings`, undefined, 'any'],
      [
        'put',
        `${s.base}/workflow-settings`,
        { default_review_interval_months: 6, signatures_required: 'one', allow_self_signing: true },
        'admin',
      ],
      ['get', `${s.base}/admin-dashboard`, undefined, 'admin'],
      ['get', `${s.base}/bulk/sign`, undefined, 'sign'],
      ['get', `${s.base}/bulk/read`, undefined, 'any'],
      ['get', `${s.base}/bulk/send-to-sign`, undefined, 'author'],
      ['get', `${s.base}/bulk/new-version`, undefined, 'author'],
      ['post', `${s.base}/bulk/sign/authorize`, { document_ids: [doc.id], password: PASSWORD }, 'sign'],
      ['post', `${s.base}/bulk/sign`, { document_ids: [doc.id] }, 'sign'],
      ['post', `${s.base}/bulk/read`, { document_ids: [doc.id] }, 'any'],
      ['post', `${s.base}/bulk/send-to-sign`, { document_ids: [doc.id] }, 'author'],
      ['post', `${s.base}/bulk/new-version`, { document_ids: [doc.id] }, 'author'],
    ];
    const anonymous = await ctx.anonymous();
    const agents = {
      anonymous,
      noRole: await ctx.signedIn(s.people.noRole),
      reader: s.as.reader,
      outsider: await ctx.signedIn(s.people.outsider),
    };
    const snapshot = async () => ({
      documents: await db().select().from(policyDocuments),
      requests: await db().select().from(policyWorkflowRequests),
      signatures: await db().select().from(policySignatures),
      attestations: await db().select().from(policyAttestations),
      audit: (await db().select({ n: count() }).from(auditEvents))[0]!.n,
    });
    const before = await snapshot();
    for (const [method, url, body, kind] of calls) {
      const expected: [keyof typeof agents, number][] = [
        ['anonymous', 401],
        ['noRole', 403],
        ['outsider', 404],
      ];
      // A reader may read; the rest is for authors, signers or admins.
      if (kind !== 'any') expected.push(['reader', 403]);
      for (const [who, status] of expected) {
        const agent = agents[who] as typeof anonymous;
        const answer =
          method === 'get' ? await agent.get(url) : await (agent as typeof anonymous)[method as 'post'](url, body);
        expect(answer.statusCode, `${method} ${url} as ${who}: ${answer.body}`).toBe(status);
      }
    }
    expect(await snapshot()).toEqual(before);
    // Bad input.
    expect((await s.as.author.post(`${d}/send-to-review`, { comment: 'x'.repeat(2001) })).statusCode).toBe(400);
    expect((await s.as.author.post(`${s.base}/documents/abc/send-to-review`, {})).statusCode).toBe(400);
    expect((await s.as.reader.post(`${s.base}/bulk/read`, { document_ids: [] })).statusCode).toBe(400);
    expect((await s.as.reader.get(`${s.base}/bulk/everything`)).statusCode).toBe(400);
  });
});
