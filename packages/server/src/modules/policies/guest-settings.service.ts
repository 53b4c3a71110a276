import type { GuestReadingInput, GuestReadingSettings, GuestReads } from '@portal/shared';
import { and, count, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { policyDocuments, policyGuestAccess, policyGuestReads } from '../../db/schema/index.js';
import { changes } from '../../lib/audit-diff.js';
import { validationFailed } from '../../lib/errors.js';
import { addressInRanges, type GuestReading, normaliseRange } from '../../policies/guest-reading.js';
import type { PolicyActor } from '../../policies/policy-management.js';
import { loadGuestReading } from './guest-reading.service.js';
import { audit } from './policy-common.js';

/** The guest reading setting as its administrators see it (issue 28), with where their own request comes from. */

export const GUEST_READS_PAGE_SIZE = 50;

async function updatedAt(db: DbOrTx, projectId: number): Promise<string | null> {
  const [row] = await db
    .select({ at: policyGuestAccess.updatedAt })
    .from(policyGuestAccess)
    .where(eq(policyGuestAccess.projectId, projectId));
  return row?.at.toISOString() ?? null;
}

export async function guestReadingSettings(db: DbOrTx, projectId: number, ip: string): Promise<GuestReadingSettings> {
  const setting = await loadGuestReading(db, projectId);
  return {
    enabled: setting.enabled,
    ip_ranges: setting.ipRanges,
    your_address: ip,
    you_are_inside: addressInRanges(setting.ipRanges, ip),
    updated_at: await updatedAt(db, projectId),
  };
}

/**
 * The ranges as stored (normalised, each once), or a 400 naming every bad entry: not an address or range, a range
 * that is the whole internet (a /0), or guest reading turned on with no range at all.
 */
export function checkedRanges(input: GuestReadingInput): string[] {
  const issues: { path: PropertyKey[]; message: string }[] = [];
  const ranges: string[] = [];
  input.ip_ranges.forEach((entry, index) => {
    if (entry === '') return;
    const range = normaliseRange(entry);
    if (range === null) {
      issues.push({
        path: ['ip_ranges', index],
        message: `“${entry}” is not an IP address or range such as 10.20.0.0/16.`,
      });
    } else if (range.endsWith('/0')) {
      issues.push({
        path: ['ip_ranges', index],
        message: `“${entry}” would open the policies to the whole internet: list the units' own networks.`,
      });
    } else if (!ranges.includes(range)) ranges.push(range);
  });
  if (issues.length === 0 && input.enabled && ranges.length === 0) {
    issues.push({ path: ['ip_ranges'], message: 'List at least one address range to turn guest reading on.' });
  }
  if (issues.length) throw validationFailed(issues);
  return ranges;
}

export async function saveGuestReading(
  db: DbOrTx,
  actor: PolicyActor & { ip: string },
  input: GuestReadingInput,
  now: Date,
): Promise<GuestReadingSettings> {
  const ipRanges = checkedRanges(input);
  await db.transaction(async (tx) => {
    const before = await loadGuestReading(tx, actor.projectId);
    const after: GuestReading = { enabled: input.enabled, ipRanges };
    const values = { enabled: after.enabled, ipRanges, updatedAt: now, updatedBy: actor.userId };
    await tx
      .insert(policyGuestAccess)
      .values({ projectId: actor.projectId, ...values })
      .onConflictDoUpdate({ target: policyGuestAccess.projectId, set: values });
    const shown = (s: GuestReading) => ({ enabled: s.enabled, ip_ranges: s.ipRanges });
    await audit(
      tx,
      actor,
      'guest_reading_changed',
      { type: 'project', id: actor.projectId },
      { before: shown(before), after: shown(after), changes: changes(shown(before), shown(after)) },
      now,
    );
  });
  return guestReadingSettings(db, actor.projectId, actor.ip);
}

/** The guest reads of the project, newest first, a page at a time. */
export async function guestReadsPage(db: DbOrTx, projectId: number, page: number): Promise<GuestReads> {
  const rows = await db
    .select({
      at: policyGuestReads.createdAt,
      ip: policyGuestReads.ip,
      kind: policyGuestReads.kind,
      query: policyGuestReads.query,
      document_id: policyDocuments.id,
      number: policyDocuments.number,
      title: policyDocuments.title,
    })
    .from(policyGuestReads)
    .leftJoin(
      policyDocuments,
      and(eq(policyDocuments.projectId, projectId), eq(policyDocuments.id, policyGuestReads.documentId)),
    )
    .where(eq(policyGuestReads.projectId, projectId))
    .orderBy(desc(policyGuestReads.createdAt), desc(policyGuestReads.id))
    .limit(GUEST_READS_PAGE_SIZE)
    .offset((page - 1) * GUEST_READS_PAGE_SIZE);
  const [total] = await db
    .select({ n: count() })
    .from(policyGuestReads)
    .where(eq(policyGuestReads.projectId, projectId));
  return {
    reads: rows.map((row) => ({
      at: row.at.toISOString(),
      ip: row.ip,
      kind: row.kind as GuestReads['reads'][number]['kind'],
      query: row.query,
      document: row.document_id === null ? null : { id: row.document_id, number: row.number, title: row.title ?? '' },
    })),
    page,
    page_size: GUEST_READS_PAGE_SIZE,
    total: total?.n ?? 0,
  };
}
