import {
  CHART_REVIEW_MAIN_ROLES,
  CR_DEFAULT_PRIVILEGE_LABEL,
  type CrSettings,
  type CrSettingsInput,
} from '@portal/shared';
import { eq } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import { nameOf } from '../../db/person-name.js';
import { crSettings, users } from '../../db/schema/index.js';
import { type ChartReviewActor, mayUse } from '../../policies/chart-review.js';
import { chartReviewAudit, personOrNull } from './route-kit.js';

/**
 * The project's chart review settings (DOMAIN.md 2.2 `cr_settings`): one row per project, created with the defaults
 * the first time anything reads it, so every project has settings without a set-up step. Everyone in chart review
 * reads them (the review form needs the privilege label and whether Partial is on); chart review admins change them.
 */

export type SettingsRow = typeof crSettings.$inferSelect;

/** The project's settings row, created with the defaults when missing (a concurrent first read inserts nothing). */
export async function loadSettings(db: DbOrTx, projectId: number, lock = false): Promise<SettingsRow> {
  const read = async () => {
    const query = db.select().from(crSettings).where(eq(crSettings.projectId, projectId));
    const [row] = lock ? await query.for('update') : await query;
    return row;
  };
  const row = await read();
  if (row) return row;
  await db.insert(crSettings).values({ projectId, privilegeLabel: CR_DEFAULT_PRIVILEGE_LABEL }).onConflictDoNothing();
  return (await read())!;
}

const FIELDS = [
  ['store_encounter_ref', 'storeEncounterRef'],
  ['reveal_roles', 'revealRoles'],
  ['retention_months', 'retentionMonths'],
  ['default_irr_rate', 'defaultIrrRate'],
  ['irr_kappa_min', 'irrKappaMin'],
  ['irr_agreement_min', 'irrAgreementMin'],
  ['new_reviewer_match_min', 'newReviewerMatchMin'],
  ['partial_enabled', 'partialEnabled'],
  ['privilege_label', 'privilegeLabel'],
  ['coi_own_unit', 'coiOwnUnit'],
] as const satisfies ReadonlyArray<readonly [keyof CrSettingsInput, keyof SettingsRow]>;

function inputOf(row: SettingsRow): CrSettingsInput {
  return Object.fromEntries(FIELDS.map(([field, column]) => [field, row[column]])) as CrSettingsInput;
}

/** GET /settings: the settings with who changed them last; `edit` for those who may use the settings section. */
export async function getSettings(db: DbOrTx, actor: ChartReviewActor): Promise<CrSettings> {
  const row = await loadSettings(db, actor.projectId);
  const [editor] =
    row.updatedBy === null
      ? []
      : await db
          .select({ name: nameOf(users) })
          .from(users)
          .where(eq(users.id, row.updatedBy));
  return {
    ...inputOf(row),
    updated_at: row.updatedAt.toISOString(),
    updated_by: personOrNull(row.updatedBy, editor?.name ?? null),
    abilities: { edit: mayUse(actor, 'settings') },
  };
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** PUT /settings: replaces every setting; the audit event lists each changed setting with its old and new value. */
export async function updateSettings(
  db: Database,
  actor: ChartReviewActor,
  input: CrSettingsInput,
  now: Date,
): Promise<CrSettings> {
  await db.transaction(async (tx) => {
    const before = inputOf(await loadSettings(tx, actor.projectId, true));
    // The order of the reveal roles means nothing: kept in the order of the main roles, without repeats.
    const revealRoles = CHART_REVIEW_MAIN_ROLES.filter((role) => input.reveal_roles.includes(role));
    const next: CrSettingsInput = { ...input, reveal_roles: revealRoles };
    const changes = Object.fromEntries(
      FIELDS.filter(([field]) => !sameValue(before[field], next[field])).map(([field]) => [
        field,
        { from: before[field], to: next[field] },
      ]),
    );
    if (Object.keys(changes).length === 0) return;
    await tx
      .update(crSettings)
      .set({
        ...Object.fromEntries(FIELDS.map(([field, column]) => [column, next[field]])),
        updatedAt: now,
        updatedBy: actor.userId,
      })
      .where(eq(crSettings.projectId, actor.projectId));
    await chartReviewAudit(
      tx,
      actor,
      'settings_updated',
      { type: 'cr_settings', id: actor.projectId },
      { changes },
      now,
    );
  });
  return getSettings(db, actor);
}
