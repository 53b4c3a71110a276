import { APP_CODES, type LOGO_TYPES, type ProjectDetails } from '@portal/shared';
import { and, eq } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import { projectMemberships, projects } from '../../db/schema/index.js';
import { recordAudit } from '../../lib/audit.js';
import { changes as auditChanges } from '../../lib/audit-diff.js';
import { notFound } from '../../lib/errors.js';
import { decodeLogo, deleteFile, storeFile } from '../../lib/files.js';
import type { Actor } from '../members/members.service.js';

/** A project's details and logo: edited by superadmins (/super/projects) and the project's admins (Admin app). */

export async function projectRoleOf(db: DbOrTx, projectId: number, userId: number) {
  const [row] = await db
    .select({ role: projectMemberships.projectRole })
    .from(projectMemberships)
    .where(and(eq(projectMemberships.projectId, projectId), eq(projectMemberships.userId, userId)));
  return (row?.role as 'admin' | 'simple' | undefined) ?? null;
}

export const logoUrl = (project: { id: number; logoFileId: number | null }) =>
  project.logoFileId ? `/api/projects/${project.id}/logo?v=${project.logoFileId}` : null;

export async function loadProjectDetails(db: DbOrTx, projectId: number): Promise<ProjectDetails> {
  const [project] = await db.select().from(projects).where(eq(projects.id, projectId));
  if (!project) throw notFound('Project not found.');
  return {
    id: project.id,
    name: project.name,
    slug: project.slug,
    facility_name: project.facilityName,
    address: project.address,
    phone: project.phone,
    email: project.email,
    logo_url: logoUrl(project),
    active_apps: APP_CODES.filter((code) => project.activeApps.includes(code)),
  };
}

export async function updateProjectDetails(
  db: Database,
  projectId: number,
  changes: { name?: string; facility_name?: string; address?: string; phone?: string; email?: string },
  actor: Actor,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await lockProject(tx, projectId);
    await tx
      .update(projects)
      .set({
        name: changes.name,
        facilityName: changes.facility_name,
        address: changes.address,
        phone: changes.phone,
        email: changes.email,
        updatedAt: now,
      })
      .where(eq(projects.id, projectId));
    await recordAudit(tx, {
      action: 'project.update_details',
      projectId,
      actorUserId: actor.userId,
      subjectType: 'project',
      subjectId: projectId,
      data: {
        changes: auditChanges(
          {
            name: before.name,
            facility_name: before.facilityName,
            address: before.address,
            phone: before.phone,
            email: before.email,
          },
          changes,
        ),
      },
      ip: actor.ip,
      requestId: actor.requestId,
      at: now,
    });
  });
}

async function lockProject(tx: DbOrTx, projectId: number) {
  const [project] = await tx.select().from(projects).where(eq(projects.id, projectId)).for('update');
  if (!project) throw notFound('Project not found.');
  return project;
}

export async function replaceLogo(
  db: Database,
  projectId: number,
  upload: { content_type: (typeof LOGO_TYPES)[number]; data: string },
  actor: Actor,
  now: Date,
): Promise<void> {
  const data = decodeLogo(upload);
  await db.transaction(async (tx) => {
    const project = await lockProject(tx, projectId);
    const fileId = await storeFile(tx, {
      projectId,
      contentType: upload.content_type,
      data,
      createdBy: actor.userId,
      createdAt: now,
    });
    await tx.update(projects).set({ logoFileId: fileId, updatedAt: now }).where(eq(projects.id, projectId));
    if (project.logoFileId) await deleteFile(tx, project.logoFileId);
    await recordAudit(tx, {
      action: 'project.logo_replace',
      projectId,
      actorUserId: actor.userId,
      subjectType: 'project',
      subjectId: projectId,
      data: { content_type: upload.content_type, size: data.length },
      ip: actor.ip,
      requestId: actor.requestId,
      at: now,
    });
  });
}

export async function removeLogo(db: Database, projectId: number, actor: Actor, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const project = await lockProject(tx, projectId);
    if (!project.logoFileId) return;
    await tx.update(projects).set({ logoFileId: null, updatedAt: now }).where(eq(projects.id, projectId));
    await deleteFile(tx, project.logoFileId);
    await recordAudit(tx, {
      action: 'project.logo_remove',
      projectId,
      actorUserId: actor.userId,
      subjectType: 'project',
      subjectId: projectId,
      ip: actor.ip,
      requestId: actor.requestId,
      at: now,
    });
  });
}
