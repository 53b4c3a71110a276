import type { AuditAction } from '@portal/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { createUser } from '../../test/factories.js';
import { recordAudit } from './audit.js';
import { chainHash, GENESIS_HASH, sealAuditChain, verifyAuditChain } from './audit-chain.js';

/** The tamper-evident audit trail: sealing, verification, and what each kind of tampering looks like. */
describe('audit hash chain', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function events(n: number, action: AuditAction = 'system.demo_data_created') {
    for (let i = 0; i < n; i++) {
      await recordAudit(db(), { action, data: { i, note: 'ü "quoted" <b>' }, ip: '10.0.0.1', subjectId: i });
    }
  }
  const idAt = async (seq: number) =>
    Number((await db().execute<{ id: string }>(sql`select id from audit_events where seq = ${seq}`)).rows[0]!.id);

  it('seals events in order, each chained to the one before, and verifies the chain', async () => {
    await sealAuditChain(db());
    const before = await verifyAuditChain(db());
    expect(before.ok).toBe(true);
    await events(7);
    const report0 = await verifyAuditChain(db());
    expect(report0.unsealed).toBe(7);
    expect(await sealAuditChain(db(), 3)).toBe(7); // in batches of 3
    expect(await sealAuditChain(db())).toBe(0);
    const report = await verifyAuditChain(db());
    expect(report).toMatchObject({ ok: true, verified: before.verified + 7, unsealed: 0, broken: null });
    const { rows } = await db().execute<{ seq: string; prev_hash: string; hash: string }>(
      sql`select seq, prev_hash, hash from audit_events order by seq`,
    );
    expect(rows[0]!.prev_hash).toBe(GENESIS_HASH);
    expect(rows.slice(1).map((row) => row.prev_hash)).toEqual(rows.slice(0, -1).map((row) => row.hash));
    expect(report.head_hash).toBe(rows.at(-1)!.hash);
  });

  it('finds an event changed after sealing, and names it', async () => {
    await events(3);
    await sealAuditChain(db());
    const { verified } = await verifyAuditChain(db());
    const target = verified - 1;
    const id = await idAt(target);
    await db().execute(sql`update audit_events set data = '{"i": 99}' where id = ${id}`);
    const report = await verifyAuditChain(db());
    expect(report.ok).toBe(false);
    expect(report.broken).toEqual({
      seq: target,
      event_id: id,
      reason: 'Its content changed after it was sealed (its hash differs).',
    });
    expect(report.verified).toBe(target - 1);
  });

  it('finds a deleted event, a forged hash and a re-chained copy', async () => {
    // Start from an empty trail (the previous case left a broken one).
    await db().execute(sql`update audit_events set seq = null, prev_hash = null, hash = null`);
    await db().execute(sql`delete from audit_events`);
    await events(5);
    await sealAuditChain(db());
    expect((await verifyAuditChain(db())).ok).toBe(true);

    const third = await idAt(3);
    const saved = (await db().execute(sql`select * from audit_events where id = ${third}`)).rows[0] as Record<
      string,
      unknown
    >;
    await db().execute(sql`delete from audit_events where id = ${third}`);
    expect((await verifyAuditChain(db())).broken).toEqual({
      seq: 3,
      event_id: null,
      reason: 'Event 3 of the chain is missing.',
    });

    // Re-inserting a forged event in its place with a recomputed own hash still breaks the next link.
    const { rows } = await db().execute<{ canonical: string }>(sql`
      select jsonb_build_array(${third}::bigint, ${saved.created_at}::timestamptz, null::int, null::int, 'forged',
        null::text, null::text, '{}'::jsonb, null::text, null::text)::text as canonical`);
    const forgedHash = chainHash(String(saved.prev_hash), rows[0]!.canonical);
    await db().execute(sql`
      insert into audit_events (id, action, created_at, seq, prev_hash, hash)
      overriding system value values (${third}, 'forged', ${saved.created_at}, 3, ${saved.prev_hash}, ${forgedHash})`);
    expect((await verifyAuditChain(db())).broken).toMatchObject({
      seq: 4,
      reason: 'It does not follow the event before it (the previous hash differs).',
    });
  });

  it('seals new events on the superadmin viewer and says whether the chain verifies', async () => {
    const root = await createUser(db(), { firstName: 'Sam', lastName: 'Super', role: 'superadmin' });
    const superadmin = await ctx.signedIn(root);
    // The previous case left a broken chain: start over.
    await db().execute(sql`delete from audit_events`);
    await events(2);
    const answer = await superadmin.get('/super/audit-chain');
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ ok: true, unsealed: 0, broken: null });
    expect(answer.json().verified).toBeGreaterThanOrEqual(2);
    await db().execute(sql`update audit_events set action = 'rewritten' where seq = 1`);
    const broken = (await superadmin.get('/super/audit-chain')).json();
    expect(broken).toMatchObject({ ok: false, broken: { seq: 1 } });

    const member = await createUser(db(), { firstName: 'Mia', lastName: 'Member' });
    const plain = await ctx.signedIn(member);
    expect((await plain.get('/super/audit-chain')).statusCode).toBe(403);
    expect((await ctx.agent().get('/super/audit-chain')).statusCode).toBe(401);
  });
});
