import { sql } from 'drizzle-orm';
import { bigint, index, inet, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { projects } from './projects.js';
import { users } from './users.js';

/** Append-only record of every change. Written in the same transaction as the change it describes. */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'restrict' }),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Dotted verb such as `terms.publish` or `system.demo_data_created`. */
    action: text('action').notNull(),
    subjectType: text('subject_type'),
    subjectId: text('subject_id'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    ip: inet('ip'),
    requestId: text('request_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The hash chain (issue 13; lib/audit-chain.ts): the event's place in the chain, the hash of the event before it
     * and its own hash over both. Null until the chain is sealed up to it (every minute and before a verification).
     */
    seq: bigint('seq', { mode: 'number' }),
    prevHash: text('prev_hash'),
    hash: text('hash'),
  },
  (t) => [
    index('audit_events_project_idx').on(t.projectId, t.createdAt),
    index('audit_events_actor_idx').on(t.actorUserId, t.createdAt),
    index('audit_events_subject_idx').on(t.subjectType, t.subjectId),
    uniqueIndex('audit_events_seq_unique').on(t.seq),
    index('audit_events_unsealed_idx').on(t.id).where(sql`${t.seq} is null`),
  ],
);
