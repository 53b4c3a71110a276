import type { Database } from '../src/db/client.js';
import { monPages } from '../src/db/schema/index.js';
import { addMember, createProject, createUser, setMainRole } from './factories.js';

/**
 * Fixtures shared by the monitoring API tests (issue 8): a project with the app on, its people by main role, and
 * an outsider who administers monitoring in another project. `admin` is the project admin (SPEC section 6 sends
 * simple members away from the administration screens); the others are simple members.
 */
export async function monitoringProject(db: Database) {
  const project = await createProject(db, { name: 'North Clinic', activeApps: ['monitoring'] });
  const other = await createProject(db, { name: 'South Clinic', activeApps: ['monitoring'] });
  const people = {
    admin: await createUser(db, { firstName: 'Ada', lastName: 'Admin' }),
    owner: await createUser(db, { firstName: 'Owen', lastName: 'Owner' }),
    dataEntry: await createUser(db, { firstName: 'Dana', lastName: 'Entry' }),
    viewer: await createUser(db, { firstName: 'Vera', lastName: 'Viewer' }),
    noRole: await createUser(db, { firstName: 'Nora', lastName: 'None' }),
    outsider: await createUser(db, { firstName: 'Olga', lastName: 'Outside' }),
  };
  await addMember(db, project.id, people.admin.id, 'admin');
  for (const who of ['owner', 'dataEntry', 'viewer', 'noRole'] as const) {
    await addMember(db, project.id, people[who].id, 'simple');
  }
  await addMember(db, other.id, people.outsider.id, 'admin');
  await setMainRole(db, project.id, people.admin.id, 'monitoring', 'monitoring_admin');
  await setMainRole(db, project.id, people.owner.id, 'monitoring', 'page_owner');
  await setMainRole(db, project.id, people.dataEntry.id, 'monitoring', 'data_entry');
  await setMainRole(db, project.id, people.viewer.id, 'monitoring', 'viewer');
  await setMainRole(db, other.id, people.outsider.id, 'monitoring', 'monitoring_admin');
  return { project, other, people };
}

/** Inserts a page row directly (number and position as given): for tests of calls other than page creation. */
export async function insertPage(
  db: Database,
  projectId: number,
  values: Partial<typeof monPages.$inferInsert> & { title: string },
) {
  const [page] = await db
    .insert(monPages)
    .values({ projectId, status: 'published', ...values })
    .returning();
  return page!;
}
