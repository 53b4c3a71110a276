import type { Department, DepartmentInput } from '@portal/shared';
import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { policyDepartments, policyDocuments } from '../../db/schema/index.js';
import { changes } from '../../lib/audit-diff.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { PolicyActor } from '../../policies/policy-management.js';
import { audit, departmentOf, isUniqueViolation } from './policy-common.js';

/** Departments of a project (name, code, optional parent). */

export async function listDepartments(db: DbOrTx, projectId: number): Promise<Department[]> {
  const counts = db
    .select({ departmentId: policyDocuments.departmentId, n: count().as('n') })
    .from(policyDocuments)
    .where(and(eq(policyDocuments.projectId, projectId), ne(policyDocuments.status, 'archived')))
    .groupBy(policyDocuments.departmentId)
    .as('counts');
  const rows = await db
    .select({
      id: policyDepartments.id,
      name: policyDepartments.name,
      code: policyDepartments.code,
      parent_id: policyDepartments.parentId,
      document_count: sql<number>`coalesce(${counts.n}, 0)::int`,
    })
    .from(policyDepartments)
    .leftJoin(counts, eq(counts.departmentId, policyDepartments.id))
    .where(eq(policyDepartments.projectId, projectId))
    .orderBy(asc(policyDepartments.name));
  return rows;
}

async function loadOne(db: DbOrTx, projectId: number, departmentId: number): Promise<Department> {
  const found = (await listDepartments(db, projectId)).find((d) => d.id === departmentId);
  if (!found) throw notFound('Department not found.');
  return found;
}

const duplicate = (error: unknown, input: Partial<DepartmentInput>): never => {
  if (isUniqueViolation(error, 'policy_departments_code_unique')) {
    throw new AppError('CONFLICT', `The code ${input.code} is already used by another department.`, {
      code: [`The code ${input.code} is already used by another department.`],
    });
  }
  if (isUniqueViolation(error, 'policy_departments_name_unique')) {
    throw new AppError('CONFLICT', `A department named "${input.name}" already exists.`, {
      name: [`A department named "${input.name}" already exists.`],
    });
  }
  throw error;
};

/** A parent must be a department of the same project and must not be the department itself or below it. */
async function checkParent(db: DbOrTx, projectId: number, departmentId: number | null, parentId: number | null) {
  if (parentId === null) return;
  await departmentOf(db, projectId, parentId, 'parent_id');
  const all = await db
    .select({ id: policyDepartments.id, parentId: policyDepartments.parentId })
    .from(policyDepartments)
    .where(eq(policyDepartments.projectId, projectId));
  const parents = new Map(all.map((d) => [d.id, d.parentId]));
  for (let at: number | null | undefined = parentId; at != null; at = parents.get(at)) {
    if (at === departmentId) {
      throw new AppError('VALIDATION_FAILED', 'A department cannot sit inside itself.', {
        parent_id: ['A department cannot sit inside itself.'],
      });
    }
  }
}

export async function createDepartment(
  db: DbOrTx,
  actor: PolicyActor,
  input: DepartmentInput,
  now: Date,
): Promise<Department> {
  await checkParent(db, actor.projectId, null, input.parent_id);
  const id = await db
    .transaction(async (tx) => {
      const [row] = await tx
        .insert(policyDepartments)
        .values({
          projectId: actor.projectId,
          name: input.name,
          code: input.code,
          parentId: input.parent_id,
          createdBy: actor.userId,
          updatedBy: actor.userId,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: policyDepartments.id });
      await audit(tx, actor, 'department_created', { type: 'policy_department', id: row!.id }, { ...input }, now);
      return row!.id;
    })
    .catch((error) => duplicate(error, input));
  return loadOne(db, actor.projectId, id);
}

export async function updateDepartment(
  db: DbOrTx,
  actor: PolicyActor,
  departmentId: number,
  input: Partial<DepartmentInput>,
  now: Date,
): Promise<Department> {
  const before = await loadOne(db, actor.projectId, departmentId);
  if (input.parent_id !== undefined) await checkParent(db, actor.projectId, departmentId, input.parent_id);
  await db
    .transaction(async (tx) => {
      await tx
        .update(policyDepartments)
        .set({
          name: input.name,
          code: input.code,
          parentId: input.parent_id,
          updatedAt: now,
          updatedBy: actor.userId,
        })
        .where(and(eq(policyDepartments.projectId, actor.projectId), eq(policyDepartments.id, departmentId)));
      await audit(
        tx,
        actor,
        'department_updated',
        { type: 'policy_department', id: departmentId },
        {
          before: { name: before.name, code: before.code, parent_id: before.parent_id },
          after: input,
          changes: changes({ name: before.name, code: before.code, parent_id: before.parent_id }, input),
        },
        now,
      );
    })
    .catch((error) => duplicate(error, input));
  return loadOne(db, actor.projectId, departmentId);
}

/** Only an empty department goes: its documents (archived ones too) and sub-departments must move first. */
export async function deleteDepartment(db: DbOrTx, actor: PolicyActor, departmentId: number, now: Date): Promise<void> {
  const department = await loadOne(db, actor.projectId, departmentId);
  await db.transaction(async (tx) => {
    const [docs] = await tx
      .select({ n: count() })
      .from(policyDocuments)
      .where(and(eq(policyDocuments.projectId, actor.projectId), eq(policyDocuments.departmentId, departmentId)));
    const [children] = await tx
      .select({ n: count() })
      .from(policyDepartments)
      .where(and(eq(policyDepartments.projectId, actor.projectId), eq(policyDepartments.parentId, departmentId)));
    if (docs!.n > 0) {
      throw new AppError(
        'CONFLICT',
        `"${department.name}" still has ${docs!.n} ${docs!.n === 1 ? 'policy' : 'policies'} (archived ones count too). Move them to another department first.`,
      );
    }
    if (children!.n > 0) {
      throw new AppError('CONFLICT', `"${department.name}" still has sub-departments. Move or delete them first.`);
    }
    await tx
      .delete(policyDepartments)
      .where(and(eq(policyDepartments.projectId, actor.projectId), eq(policyDepartments.id, departmentId)));
    await audit(
      tx,
      actor,
      'department_deleted',
      { type: 'policy_department', id: departmentId },
      {
        name: department.name,
        code: department.code,
      },
      now,
    );
  });
}
