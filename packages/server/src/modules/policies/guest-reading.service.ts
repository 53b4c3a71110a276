import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { policyGuestAccess, policyGuestReads } from '../../db/schema/index.js';
import { type GuestReading, guestMayRead } from '../../policies/guest-reading.js';

/** The project's guest reading setting (off when never set). */
export async function loadGuestReading(db: DbOrTx, projectId: number): Promise<GuestReading> {
  const [row] = await db
    .select({ enabled: policyGuestAccess.enabled, ipRanges: policyGuestAccess.ipRanges })
    .from(policyGuestAccess)
    .where(eq(policyGuestAccess.projectId, projectId));
  return row ?? { enabled: false, ipRanges: [] };
}

/** Whether a request from `ip` may read the project's published policies without signing in. */
export async function guestMayReadProject(db: DbOrTx, projectId: number, ip: string): Promise<boolean> {
  return guestMayRead(await loadGuestReading(db, projectId), ip);
}

export interface GuestRead {
  projectId: number;
  kind: 'read' | 'search' | 'link';
  documentId?: number | null;
  versionId?: number | null;
  query?: string | null;
  ip: string;
  userAgent?: string;
}

/** Every guest search, read and followed link is kept with the address it came from. */
export async function recordGuestRead(db: DbOrTx, read: GuestRead, now: Date): Promise<void> {
  await db.insert(policyGuestReads).values({
    projectId: read.projectId,
    kind: read.kind,
    documentId: read.documentId ?? null,
    versionId: read.versionId ?? null,
    query: read.query?.slice(0, 200) ?? null,
    ip: read.ip,
    userAgent: (read.userAgent ?? '').slice(0, 300),
    createdAt: now,
  });
}
