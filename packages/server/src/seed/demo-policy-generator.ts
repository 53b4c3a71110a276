import type { DbOrTx } from '../db/client.js';
import { pgFacilityProfiles } from '../db/schema/index.js';

/**
 * The demo facility's profile for the policy generator (issue 12): filled in, so the wizard's first step passes and
 * the library's templates render with a real name, titles and service lines. The templates themselves are the
 * product's library, put into the database on first use.
 */
export async function seedDemoPolicyGenerator(tx: DbOrTx, projectId: number, adminId: number): Promise<void> {
  await tx.insert(pgFacilityProfiles).values({
    projectId,
    legalName: 'Demo Facility General Hospital',
    shortName: 'Demo General',
    address: '100 Example Avenue, Springfield',
    state: 'OH',
    bedCount: 180,
    serviceLines: ['ed', 'ob', 'surgery', 'icu', 'outpatient'],
    accreditors: ['tjc'],
    ownerTitles: {
      ceo: 'Chief Executive Officer',
      cno: 'Chief Nursing Officer',
      cmo: 'Chief Medical Officer',
      quality: 'Director of Quality and Patient Safety',
      risk: 'Risk Manager',
      infection_prevention: 'Infection Preventionist',
      pharmacy: 'Director of Pharmacy',
      privacy: 'Privacy Officer',
      emergency: 'Emergency Management Coordinator',
    },
    defaultReviewIntervalMonths: 36,
    updatedBy: adminId,
  });
}
