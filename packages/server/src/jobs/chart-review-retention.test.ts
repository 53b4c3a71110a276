import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import {
  drawnSample,
  eligibleCsv,
  samplingSetup,
  setSettings,
  uploadList,
} from '../../test/chart-review-sampling-kit.js';
import { auditEvents, crCases } from '../db/schema/index.js';
import { unsafePurgeExpiredEncounterRefs } from './chart-review-retention.js';

describe('retention of chart review encounter references', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  it("purges the references of cases whose period started more than the project's retention ago", async () => {
    const s = await samplingSetup(ctx);
    await setSettings(ctx, s.project.id, { storeEncounterRef: true, retentionMonths: 12 });
    const old = await drawnSample(s, { csv: eligibleCsv(3) });
    const recent = await uploadList(s.lead, s, s.program.id, eligibleCsv(2), '2027-01-01');
    expect(recent.statusCode).toBe(201);

    // One day before the March 2026 period is 12 months old: nothing goes.
    expect(await unsafePurgeExpiredEncounterRefs(db(), new Date('2027-02-28T03:30:00Z'))).toEqual([]);
    // The clock moved on: March 2026 is now more than 12 months ago, January 2027 is not.
    const now = new Date('2027-03-02T03:30:00Z');
    expect(await unsafePurgeExpiredEncounterRefs(db(), now)).toEqual([{ projectId: s.project.id, cases: 3 }]);
    const cases = await db().select().from(crCases).where(eq(crCases.projectId, s.project.id));
    for (const c of cases) {
      if (c.sampleId === old.id) {
        expect(c.encounterRefEnc).toBeNull();
        expect(c.refPurgedAt).toEqual(now);
      } else {
        expect(c.encounterRefEnc).not.toBeNull();
      }
    }
    const events = await db()
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'chart_review.encounter_refs_purged'), eq(auditEvents.projectId, s.project.id)),
      );
    expect(events.map((event) => event.data)).toEqual([{ before: '2026-03-02', retention_months: 12, cases: 3 }]);
    // A second run finds nothing more.
    expect(await unsafePurgeExpiredEncounterRefs(db(), now)).toEqual([]);
  });
});
