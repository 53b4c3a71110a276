import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';

/**
 * The tamper-evident audit trail (issue 13; docs/security.md "Audit trail"). Each event is chained to the one before
 * it: hash = SHA-256(previous hash + "\n" + the event's fields as PostgreSQL writes them in JSON). Changing, deleting
 * or inserting an event anywhere before the head breaks every link after it, which `verifyAuditChain` finds.
 *
 * Events are sealed into the chain shortly after they commit (a job every minute, and before every verification)
 * rather than as they are written: a lock held by every writing transaction until it commits would serialise the
 * whole portal and could deadlock with the row locks of the change being audited. The order of the chain is the
 * order of sealing (`seq`), so an event committed late simply takes a later place.
 *
 * What a chain cannot show alone is the loss of its newest events: keep the head hash `npm run audit:verify`
 * prints (or a backup's) somewhere else, and compare.
 */

export const GENESIS_HASH = '0'.repeat(64);
const LOCK = sql`select pg_advisory_xact_lock(hashtext('audit-chain'))`;

/** One event's canonical text: fixed field order, rendered by PostgreSQL (so microseconds and jsonb are exact). */
const CANONICAL = sql.raw(
  `jsonb_build_array(id, created_at, project_id, actor_user_id, action, subject_type, subject_id, data, host(ip), request_id)::text`,
);

export const chainHash = (prevHash: string, canonical: string) =>
  createHash('sha256').update(`${prevHash}\n${canonical}`).digest('hex');

interface Head {
  seq: number;
  hash: string;
}

async function headOf(db: DbOrTx): Promise<Head> {
  const { rows } = await db.execute<{ seq: string; hash: string }>(
    sql`select seq, hash from audit_events where seq is not null order by seq desc limit 1`,
  );
  return rows[0] ? { seq: Number(rows[0].seq), hash: rows[0].hash } : { seq: 0, hash: GENESIS_HASH };
}

/** Seals every committed event not yet in the chain, in id order, in batches. Returns how many it sealed. */
export async function sealAuditChain(db: DbOrTx, batch = 1000): Promise<number> {
  let sealed = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      await tx.execute(LOCK);
      const head = await headOf(tx);
      const { rows } = await tx.execute<{ id: string; canonical: string }>(
        sql`select id, ${CANONICAL} as canonical from audit_events where seq is null order by id limit ${batch}`,
      );
      if (!rows.length) return 0;
      let { seq, hash } = head;
      const values = rows.map((row) => {
        const prev = hash;
        hash = chainHash(prev, row.canonical);
        seq += 1;
        return sql`(${Number(row.id)}::bigint, ${seq}::bigint, ${prev}, ${hash})`;
      });
      await tx.execute(sql`
        update audit_events e set seq = v.seq, prev_hash = v.prev_hash, hash = v.hash
        from (values ${sql.join(values, sql`, `)}) as v(id, seq, prev_hash, hash)
        where e.id = v.id and e.seq is null`);
      return rows.length;
    });
    sealed += done;
    if (done < batch) return sealed;
  }
}

export interface ChainReport {
  ok: boolean;
  /** Events checked in the chain. */
  verified: number;
  /** Events written but not sealed yet (they are checked from the next sealing on). */
  unsealed: number;
  /** The chain's last hash: keep it elsewhere to prove later that nothing at the end went missing. */
  head_hash: string | null;
  /** The first broken link, when there is one. */
  broken: { seq: number; event_id: number | null; reason: string } | null;
}

/** Walks the whole chain in order and reports the first broken link. Reads only. */
export async function verifyAuditChain(db: DbOrTx, batch = 5000): Promise<ChainReport> {
  let expectedSeq = 1;
  let prevHash = GENESIS_HASH;
  let verified = 0;
  for (;;) {
    const { rows } = await db.execute<{ id: string; seq: string; prev_hash: string; hash: string; canonical: string }>(
      sql`select id, seq, prev_hash, hash, ${CANONICAL} as canonical from audit_events
          where seq >= ${expectedSeq} order by seq limit ${batch}`,
    );
    for (const row of rows) {
      const seq = Number(row.seq);
      const id = Number(row.id);
      const broken = (reason: string): ChainReport => ({
        ok: false,
        verified,
        unsealed: 0,
        head_hash: null,
        broken: { seq: expectedSeq, event_id: seq === expectedSeq ? id : null, reason },
      });
      if (seq !== expectedSeq) return withUnsealed(db, broken(`Event ${expectedSeq} of the chain is missing.`));
      if (row.prev_hash !== prevHash) {
        return withUnsealed(db, broken('It does not follow the event before it (the previous hash differs).'));
      }
      if (chainHash(prevHash, row.canonical) !== row.hash) {
        return withUnsealed(db, broken('Its content changed after it was sealed (its hash differs).'));
      }
      prevHash = row.hash;
      expectedSeq += 1;
      verified += 1;
    }
    if (rows.length < batch) break;
  }
  return withUnsealed(db, { ok: true, verified, unsealed: 0, head_hash: verified ? prevHash : null, broken: null });
}

async function withUnsealed(db: DbOrTx, report: ChainReport): Promise<ChainReport> {
  const { rows } = await db.execute<{ n: number }>(sql`select count(*)::int as n from audit_events where seq is null`);
  return { ...report, unsealed: rows[0]?.n ?? 0 };
}
