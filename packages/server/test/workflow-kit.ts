import { expect } from 'vitest';
import type { Database } from '../src/db/client.js';
import { policyDepartmentRoles, policyDepartments } from '../src/db/schema/index.js';
import type { Agent } from './agent.js';
import { addMember, createUser, setMainRole } from './factories.js';
import { policyProject } from './policy-kit.js';

/**
 * A policy project ready for the workflow (issue 7): department NUR with two reviewers, two signers and two readers,
 * plus the people of policyProject (admin, author, reader, noRole, outsider).
 */
export async function workflowProject(db: Database) {
  const base = await policyProject(db);
  const person = async (firstName: string, lastName: string, mainRole: string) => {
    const user = await createUser(db, { firstName, lastName });
    await addMember(db, base.project.id, user.id, 'simple');
    await setMainRole(db, base.project.id, user.id, 'policy_management', mainRole);
    return user;
  };
  const people = {
    ...base.people,
    reviewer1: await person('Rob', 'Reviewer', 'reviewer'),
    reviewer2: await person('Ruth', 'Reviewer', 'reviewer'),
    signer1: await person('Sam', 'Signer', 'signer'),
    signer2: await person('Sara', 'Signer', 'signer'),
  };
  const [nursing] = await db
    .insert(policyDepartments)
    .values({ projectId: base.project.id, name: 'Nursing', code: 'NUR' })
    .returning();
  const [pharmacy] = await db
    .insert(policyDepartments)
    .values({ projectId: base.project.id, name: 'Pharmacy', code: 'PHA' })
    .returning();
  const roles: [number, 'reviewer' | 'signer' | 'reader'][] = [
    [people.reviewer1.id, 'reviewer'],
    [people.reviewer2.id, 'reviewer'],
    [people.signer1.id, 'signer'],
    [people.signer2.id, 'signer'],
    [people.reader.id, 'reader'],
    [people.signer1.id, 'reader'],
  ];
  await db
    .insert(policyDepartmentRoles)
    .values(roles.map(([userId, role]) => ({ projectId: base.project.id, departmentId: nursing!.id, userId, role })));
  return { ...base, people, nursing: nursing!, pharmacy: pharmacy! };
}

/** The people of workflowProject who take part in a round, to sign in: `ctx.signedInAll(s.people, ...ROUND_PEOPLE)`. */
export const ROUND_PEOPLE = ['admin', 'author', 'reviewer1', 'reviewer2', 'signer1', 'signer2', 'reader'] as const;

/** A new draft policy posted by `author` to the policy app at `base` (201 expected): its id and draft version. */
export async function postDraft(
  author: Agent,
  base: string,
  title: string,
  departmentId: number | null,
  content = `<p>${title}</p>`,
) {
  const answer = await author.post(`${base}/documents`, { title, department_id: departmentId, content });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json() as { id: number; draft_version: { id: number; revision: number; content: string } };
}
