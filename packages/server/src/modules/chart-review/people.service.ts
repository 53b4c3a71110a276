import type { CrPeople } from '@portal/shared';
import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { nameOf } from '../../db/person-name.js';
import { projectMemberRoles, projectMemberships, users } from '../../db/schema/index.js';

/**
 * The people of chart review: active members of the project with a chart review main role (project_member_roles,
 * app chart_review). They are who may own programmes, review charts and adjudicate.
 */

type ChartReviewRole = CrPeople['people'][number]['role'];

/** The main roles that may own a programme. */
export const PROGRAM_OWNER_ROLES = ['chart_review_admin', 'program_lead'] as const;

/** Active members of the project with a chart review main role, narrowed by `where`. */
function chartReviewPeople(db: DbOrTx, projectId: number, where?: SQL) {
  return db
    .select({ id: users.id, name: nameOf(users), role: projectMemberRoles.mainRole })
    .from(projectMemberships)
    .innerJoin(users, eq(users.id, projectMemberships.userId))
    .innerJoin(
      projectMemberRoles,
      and(
        eq(projectMemberRoles.projectId, projectMemberships.projectId),
        eq(projectMemberRoles.userId, projectMemberships.userId),
        eq(projectMemberRoles.app, 'chart_review'),
      ),
    )
    .where(and(eq(projectMemberships.projectId, projectId), eq(users.status, 'active'), where));
}

/** GET /people: by name. */
export async function listPeople(db: DbOrTx, projectId: number): Promise<CrPeople> {
  const rows = await chartReviewPeople(db, projectId).orderBy(asc(nameOf(users)), asc(users.id));
  return { people: rows.map((row) => ({ ...row, role: row.role as ChartReviewRole })) };
}

/** Those among `ids` who are active members of the project with a chart review main role, with that role. */
export async function chartReviewPeopleAmong(
  db: DbOrTx,
  projectId: number,
  ids: readonly number[],
): Promise<{ id: number; name: string; role: ChartReviewRole }[]> {
  if (ids.length === 0) return [];
  const rows = await chartReviewPeople(db, projectId, inArray(users.id, [...ids]));
  return rows.map((row) => ({ ...row, role: row.role as ChartReviewRole }));
}

/** Whether a user is an active member of the project whose chart review role may own a programme. */
export async function mayOwnPrograms(db: DbOrTx, projectId: number, userId: number): Promise<boolean> {
  const [row] = await chartReviewPeople(
    db,
    projectId,
    and(eq(users.id, userId), inArray(projectMemberRoles.mainRole, [...PROGRAM_OWNER_ROLES])),
  );
  return row !== undefined;
}
