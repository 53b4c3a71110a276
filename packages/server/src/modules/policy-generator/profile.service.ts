import {
  type FacilityProfile,
  type FacilityProfileInput,
  OWNER_TITLES,
  PROFILE_VARIABLES,
  type ProfileValues,
  profileValues,
} from '@portal/shared';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { personRef } from '../../db/person-name.js';
import { pgFacilityProfiles, projects } from '../../db/schema/index.js';
import { changes } from '../../lib/audit-diff.js';
import { profileActor, profileRules } from '../../policies/generator-records.js';
import type { ProjectAccess } from '../../policies/projects.js';
import { authorize, can } from '../../policies/rules.js';
import { generatorAudit } from './kit.js';

/** The facility profile (issue 12): one per project, read by every template as variables and flags. */

export const DEFAULT_PROFILE_REVIEW_MONTHS = 36;

type Row = typeof pgFacilityProfiles.$inferSelect;

function toValues(row: Row | undefined, projectName: string): ProfileValues {
  if (!row) {
    return {
      legal_name: projectName,
      short_name: '',
      address: '',
      state: '',
      bed_count: null,
      service_lines: [],
      accreditors: [],
      owner_titles: {},
      default_review_interval_months: DEFAULT_PROFILE_REVIEW_MONTHS,
    };
  }
  return {
    legal_name: row.legalName,
    short_name: row.shortName,
    address: row.address,
    state: row.state,
    bed_count: row.bedCount,
    service_lines: row.serviceLines,
    accreditors: row.accreditors,
    owner_titles: Object.fromEntries(
      OWNER_TITLES.flatMap((t) => (row.ownerTitles[t] ? [[t, row.ownerTitles[t]]] : [])),
    ),
    default_review_interval_months: row.defaultReviewIntervalMonths,
  };
}

/** The profile's values for a project (suggestions from the project until it is saved). */
export async function loadProfileValues(db: DbOrTx, projectId: number): Promise<ProfileValues> {
  const [row] = await db
    .select({ profile: pgFacilityProfiles, projectName: projects.name })
    .from(projects)
    .leftJoin(pgFacilityProfiles, eq(pgFacilityProfiles.projectId, projects.id))
    .where(eq(projects.id, projectId));
  return toValues(row?.profile ?? undefined, row?.projectName ?? '');
}

export async function readProfile(db: DbOrTx, access: ProjectAccess): Promise<FacilityProfile> {
  const [row] = await db.select().from(pgFacilityProfiles).where(eq(pgFacilityProfiles.projectId, access.project.id));
  const values = toValues(row, access.project.name);
  const lent = profileValues(values);
  return {
    ...values,
    service_lines: [...values.service_lines] as FacilityProfile['service_lines'],
    accreditors: [...values.accreditors] as FacilityProfile['accreditors'],
    owner_titles: { ...values.owner_titles },
    state: values.state as FacilityProfile['state'],
    saved: row !== undefined,
    missing: PROFILE_VARIABLES.filter((name) => lent[name] === undefined),
    can_edit: can(profileRules, 'edit', profileActor(access), { projectId: access.project.id }),
    updated_at: row?.updatedAt.toISOString() ?? null,
    updated_by: row ? ((await personRef(db, row.updatedBy))?.name ?? null) : null,
  };
}

export async function saveProfile(
  db: DbOrTx,
  access: ProjectAccess,
  who: { userId: number; ip: string | null; requestId: string | null },
  input: FacilityProfileInput,
  now: Date,
): Promise<FacilityProfile> {
  authorize(profileRules, 'edit', profileActor(access), { projectId: access.project.id });
  const values = {
    legalName: input.legal_name,
    shortName: input.short_name,
    address: input.address,
    state: input.state,
    bedCount: input.bed_count,
    serviceLines: [...new Set(input.service_lines)],
    accreditors: [...new Set(input.accreditors)],
    ownerTitles: Object.fromEntries(Object.entries(input.owner_titles).filter(([, v]) => v)) as Record<string, string>,
    defaultReviewIntervalMonths: input.default_review_interval_months,
    updatedAt: now,
    updatedBy: who.userId,
  };
  await db.transaction(async (tx) => {
    const [previous] = await tx
      .select()
      .from(pgFacilityProfiles)
      .where(eq(pgFacilityProfiles.projectId, access.project.id))
      .for('update');
    await tx
      .insert(pgFacilityProfiles)
      .values({ projectId: access.project.id, ...values })
      .onConflictDoUpdate({ target: pgFacilityProfiles.projectId, set: values });
    await generatorAudit(
      tx,
      { ...who, projectId: access.project.id },
      'profile_saved',
      { type: 'facility_profile', id: access.project.id },
      {
        ...input,
        changes: changes(
          previous
            ? {
                legal_name: previous.legalName,
                short_name: previous.shortName,
                address: previous.address,
                state: previous.state,
                bed_count: previous.bedCount,
                service_lines: previous.serviceLines,
                accreditors: previous.accreditors,
                owner_titles: previous.ownerTitles,
                default_review_interval_months: previous.defaultReviewIntervalMonths,
              }
            : {},
          {
            legal_name: values.legalName,
            short_name: values.shortName,
            address: values.address,
            state: values.state,
            bed_count: values.bedCount,
            service_lines: values.serviceLines,
            accreditors: values.accreditors,
            owner_titles: values.ownerTitles,
            default_review_interval_months: values.defaultReviewIntervalMonths,
          },
        ),
      },
      now,
    );
  });
  return readProfile(db, access);
}
