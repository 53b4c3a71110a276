import {
  CANCELLABLE_REQUEST_STATUSES,
  DATA_REQUEST_TRANSITIONS,
  type DataRequestComment,
  type DataRequestDetail,
  type DataRequestRow,
  type DataRequestStatus,
  type DataRequestUpdate,
  type dataRequestCreateSchema,
  FINISHED_REQUEST_STATUSES,
  HIDDEN_PAGE_MESSAGE,
  isAllowed,
  REJECT_NEEDS_RESPONSE_MESSAGE,
  type RequestFormat,
} from '@portal/shared';
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Database, DbOrTx } from '../../db/client.js';
import { nameOf } from '../../db/person-name.js';
import {
  monPages,
  monRequestComments,
  monRequests,
  projectMemberRoles,
  projectMemberships,
  storedFiles,
  users,
} from '../../db/schema/index.js';
import { subjectAudit } from '../../lib/audit.js';
import { changes } from '../../lib/audit-diff.js';
import { AppError, notFound } from '../../lib/errors.js';
import { deleteFile, storeFile } from '../../lib/files.js';
import { type MonitoringActor, requireActor } from '../../policies/monitoring.js';
import {
  isDataSteward,
  type RequestFacts,
  requestDetailRules,
  requestRules,
  TAKES_NO_FILE,
} from '../../policies/monitoring-records.js';
import { authorize, can, serialize } from '../../policies/rules.js';
import { rulesFor } from '../permissions/permissions.service.js';
import { effectivePageAccess } from './page-access.js';

/**
 * Data requests ("Request Data"; issue 8, decision record 008). Any monitoring user files one for pages they may see;
 * the data stewards (the main roles the section `request-queue` allows, by default monitoring_admin and data_entry)
 * see every request, assign, answer, move it through its statuses and deliver a file. A requester sees their own
 * requests and may cancel them until they are delivered. Anyone else gets 404. Page titles are shown only to those
 * who may see the page; the others are counted. Every query is scoped by the actor's project.
 */

type RequestRow = typeof monRequests.$inferSelect;
export type DataRequestCreateInput = z.output<typeof dataRequestCreateSchema>;

/** A bell notification (and email), queued in the transaction of the change that causes it. */
export interface RequestNotice {
  userIds: number[];
  message: string;
  link: string;
  subject: string;
}

const requesters = alias(users, 'requester');
const assignees = alias(users, 'assignee');
const personName = nameOf(users);

const STATUS_LABELS: Record<DataRequestStatus, string> = {
  submitted: 'submitted',
  triaged: 'triaged',
  in_progress: 'in progress',
  delivered: 'delivered',
  closed: 'closed',
  rejected: 'rejected',
  cancelled: 'cancelled',
};

/** The web path of a request (opens its drawer on the Request Data screen). */
export const requestLink = (projectId: number, requestId: number) =>
  `/app/monitoring/${projectId}/request-form?request=${requestId}`;

const fieldError = (field: string, message: string) =>
  new AppError('VALIDATION_FAILED', message, { [field]: [message] });
const today = (now: Date) => now.toISOString().slice(0, 10);

/** The data stewards: members whose monitoring main role the request-queue rule allows. */
export async function listStewards(db: DbOrTx, projectId: number): Promise<{ id: number; name: string }[]> {
  const rules = await rulesFor(db, projectId, 'monitoring');
  const rows = await db
    .select({ id: users.id, name: personName, role: projectMemberRoles.mainRole })
    .from(projectMemberRoles)
    .innerJoin(
      projectMemberships,
      and(
        eq(projectMemberships.projectId, projectMemberRoles.projectId),
        eq(projectMemberships.userId, projectMemberRoles.userId),
      ),
    )
    .innerJoin(users, eq(users.id, projectMemberRoles.userId))
    .where(and(eq(projectMemberRoles.projectId, projectId), eq(projectMemberRoles.app, 'monitoring')))
    .orderBy(asc(personName), asc(users.id));
  return rows.filter((row) => isAllowed(rules, 'request-queue', row.role)).map(({ id, name }) => ({ id, name }));
}

/** Records a data request change (`monitoring.<action>`, subject `mon_request`) in the transaction of the change. */
const audit = subjectAudit('monitoring', 'mon_request');

/** The pages the actor may see, with their number and title. */
async function visiblePages(db: DbOrTx, actor: MonitoringActor) {
  const access = await effectivePageAccess(db, actor);
  const ids = [...access].filter(([, level]) => level !== 'none').map(([id]) => id);
  if (ids.length === 0) return new Map<number, { id: number; number: string | null; title: string }>();
  const rows = await db
    .select({ id: monPages.id, number: monPages.number, title: monPages.title })
    .from(monPages)
    .where(and(eq(monPages.projectId, actor.projectId), inArray(monPages.id, ids), isNull(monPages.deletedAt)));
  return new Map(rows.map((row) => [row.id, row]));
}

/** POST /requests: files a request; the stewards hear of it. */
export async function createRequest(
  db: Database,
  actor: MonitoringActor,
  input: DataRequestCreateInput,
  now: Date,
  notices: RequestNotice[],
): Promise<number> {
  const visible = await visiblePages(db, actor);
  const errors: Record<string, string[]> = {};
  input.page_ids.forEach((pageId, index) => {
    if (!visible.has(pageId)) errors[`page_ids.${index}`] = [HIDDEN_PAGE_MESSAGE];
  });
  if (Object.keys(errors).length > 0) throw new AppError('VALIDATION_FAILED', HIDDEN_PAGE_MESSAGE, errors);
  if (input.needed_by && input.needed_by < today(now)) {
    throw fieldError('needed_by', 'The date must not be in the past.');
  }
  const id = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(monRequests)
      .values({
        projectId: actor.projectId,
        requesterId: actor.userId,
        title: input.title,
        purpose: input.purpose,
        pageIds: input.page_ids,
        periodFrom: input.period_from,
        periodTo: input.period_to,
        format: input.format,
        patientLevel: input.patient_level,
        justification: input.patient_level ? (input.justification ?? null) : null,
        neededBy: input.needed_by ?? null,
        status: 'submitted',
        createdAt: now,
        updatedAt: now,
        updatedBy: actor.userId,
      })
      .returning({ id: monRequests.id });
    await audit(
      tx,
      actor,
      'request_created',
      row!.id,
      {
        title: input.title,
        page_ids: input.page_ids,
        format: input.format,
        patient_level: input.patient_level,
      },
      now,
    );
    return row!.id;
  });
  const stewards = (await listStewards(db, actor.projectId))
    .map((s) => s.id)
    .filter((userId) => userId !== actor.userId);
  notices.push({
    userIds: stewards,
    message: `New data request: "${input.title}"${input.patient_level ? ' (patient-level data)' : ''}.`,
    link: requestLink(actor.projectId, id),
    subject: 'New data request',
  });
  return id;
}

async function rowsOf(
  db: DbOrTx,
  actor: MonitoringActor,
  where: ReturnType<typeof and>,
  now: Date,
): Promise<(DataRequestRow & { raw: RequestRow })[]> {
  const rows = await db
    .select({
      request: monRequests,
      requesterName: nameOf(requesters),
      assigneeName: nameOf(assignees),
      fileName: storedFiles.fileName,
      fileSize: storedFiles.size,
      commentCount: sql<number>`(select count(*)::int from ${monRequestComments} c
                                  where c.project_id = ${monRequests.projectId} and c.request_id = ${monRequests.id})`,
    })
    .from(monRequests)
    .leftJoin(requesters, eq(requesters.id, monRequests.requesterId))
    .leftJoin(assignees, eq(assignees.id, monRequests.assigneeId))
    .leftJoin(
      storedFiles,
      and(eq(storedFiles.id, monRequests.deliveredFileId), eq(storedFiles.projectId, monRequests.projectId)),
    )
    .where(where)
    .orderBy(desc(monRequests.createdAt), desc(monRequests.id));
  const visible = rows.length ? await visiblePages(db, actor) : new Map();
  const day = today(now);
  return rows.map((row) => {
    const r = row.request;
    const pages = r.pageIds.map((id) => visible.get(id)).filter((page) => page !== undefined);
    const status = r.status as DataRequestStatus;
    return {
      raw: r,
      id: r.id,
      title: r.title,
      status,
      requester:
        r.requesterId !== null && row.requesterName !== null ? { id: r.requesterId, name: row.requesterName } : null,
      assignee:
        r.assigneeId !== null && row.assigneeName !== null ? { id: r.assigneeId, name: row.assigneeName } : null,
      pages,
      other_page_count: r.pageIds.length - pages.length,
      period_from: r.periodFrom,
      period_to: r.periodTo,
      format: r.format as RequestFormat,
      patient_level: r.patientLevel,
      needed_by: r.neededBy,
      overdue: r.neededBy !== null && r.neededBy < day && !FINISHED_REQUEST_STATUSES.includes(status),
      comment_count: row.commentCount,
      delivered_file:
        r.deliveredFileId !== null && row.fileName !== null
          ? { name: row.fileName || `request-${r.id}`, size: row.fileSize ?? 0 }
          : null,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    };
  });
}

/** GET /requests?scope=: the actor's own requests, or (stewards) every request of the project. */
export async function listRequests(
  db: DbOrTx,
  actor: MonitoringActor,
  scope: 'mine' | 'queue',
  now: Date,
): Promise<DataRequestRow[]> {
  if (scope === 'queue') requireActor(actor, isDataSteward, 'Only data stewards see the queue of data requests.');
  const rows = await rowsOf(
    db,
    actor,
    and(
      eq(monRequests.projectId, actor.projectId),
      scope === 'mine' ? eq(monRequests.requesterId, actor.userId) : undefined,
    ),
    now,
  );
  return rows.map(({ raw: _raw, ...row }) => row);
}

/** A request the actor may see: its requester, or a steward. Anyone else: 404. */
async function visibleRequest(db: DbOrTx, actor: MonitoringActor, requestId: number, lock = false) {
  const query = db
    .select()
    .from(monRequests)
    .where(and(eq(monRequests.projectId, actor.projectId), eq(monRequests.id, requestId)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('Request not found.');
  const request: RequestFacts = {
    projectId: row.projectId,
    requesterId: row.requesterId,
    status: row.status as DataRequestStatus,
  };
  if (!can(requestRules, 'see', actor, request)) throw notFound('Request not found.');
  return {
    row,
    request,
    mine: request.requesterId === actor.userId,
    steward: can(requestRules, 'handle', actor, request),
  };
}

function transitionsFor(row: RequestRow, mine: boolean, steward: boolean): DataRequestStatus[] {
  const status = row.status as DataRequestStatus;
  const next = steward ? [...DATA_REQUEST_TRANSITIONS[status]] : [];
  if (mine && CANCELLABLE_REQUEST_STATUSES.includes(status)) next.push('cancelled');
  return next;
}

/** GET /requests/{requestId}: the request with its comments (requester or steward). */
export async function getRequest(
  db: DbOrTx,
  actor: MonitoringActor,
  requestId: number,
  now: Date,
): Promise<DataRequestDetail> {
  const { request, mine, steward } = await visibleRequest(db, actor, requestId);
  const [entry] = await rowsOf(
    db,
    actor,
    and(eq(monRequests.projectId, actor.projectId), eq(monRequests.id, requestId)),
    now,
  );
  if (!entry) throw notFound('Request not found.');
  const { raw, ...row } = entry;
  const comments = await db
    .select({
      id: monRequestComments.id,
      authorId: monRequestComments.authorId,
      authorName: personName,
      body: monRequestComments.body,
      createdAt: monRequestComments.createdAt,
    })
    .from(monRequestComments)
    .leftJoin(users, eq(users.id, monRequestComments.authorId))
    .where(and(eq(monRequestComments.projectId, actor.projectId), eq(monRequestComments.requestId, requestId)))
    .orderBy(asc(monRequestComments.createdAt), asc(monRequestComments.id));
  return {
    ...row,
    purpose: raw.purpose,
    justification: raw.justification,
    response: raw.response,
    delivered_at: raw.deliveredAt?.toISOString() ?? null,
    comments: comments.map(
      (c): DataRequestComment => ({
        id: c.id,
        author: c.authorId !== null && c.authorName !== null ? { id: c.authorId, name: c.authorName } : null,
        body: c.body,
        created_at: c.createdAt.toISOString(),
      }),
    ),
    transitions: transitionsFor(raw, mine, steward),
    abilities: serialize(requestDetailRules, actor, request),
  };
}

/** PATCH /requests/{requestId}: stewards change status, assignee and response; the requester may cancel. */
export async function updateRequest(
  db: Database,
  actor: MonitoringActor,
  requestId: number,
  input: DataRequestUpdate,
  now: Date,
  notices: RequestNotice[],
): Promise<void> {
  await db.transaction(async (tx) => {
    const { row, request, mine, steward } = await visibleRequest(tx, actor, requestId, true);
    const from = row.status as DataRequestStatus;
    // Anything but cancelling is handling it (the requester may only cancel).
    if (input.assignee_id !== undefined || input.response !== undefined || input.status !== 'cancelled') {
      authorize(requestRules, 'handle', actor, request);
    }
    const next: Partial<RequestRow> = {};
    const changed: string[] = [];
    if (input.status !== undefined && input.status !== from) {
      if (!transitionsFor(row, mine, steward).includes(input.status)) {
        const message =
          input.status === 'cancelled'
            ? mine
              ? `A ${STATUS_LABELS[from]} request can no longer be cancelled.`
              : 'Only the requester may cancel a request.'
            : `A ${STATUS_LABELS[from]} request cannot be moved to ${STATUS_LABELS[input.status]}.`;
        throw new AppError('CONFLICT', message, { status: [message] });
      }
      next.status = input.status;
      if (input.status === 'delivered') next.deliveredAt = now;
      changed.push('status');
    }
    if (input.response !== undefined && (input.response || null) !== row.response) {
      next.response = input.response || null;
      changed.push('response');
    }
    const response = changed.includes('response') ? next.response : row.response;
    if (next.status === 'rejected' && !response) {
      throw fieldError('response', REJECT_NEEDS_RESPONSE_MESSAGE);
    }
    if (input.assignee_id !== undefined && input.assignee_id !== row.assigneeId) {
      if (input.assignee_id !== null) {
        const stewards = await listStewards(tx, actor.projectId);
        if (!stewards.some((s) => s.id === input.assignee_id)) {
          throw fieldError('assignee_id', 'Choose one of the data stewards.');
        }
      }
      next.assigneeId = input.assignee_id;
      changed.push('assignee_id');
    }
    if (changed.length === 0) return;
    await tx
      .update(monRequests)
      .set({ ...next, updatedAt: now, updatedBy: actor.userId })
      .where(and(eq(monRequests.projectId, actor.projectId), eq(monRequests.id, requestId)));
    await audit(
      tx,
      actor,
      'request_updated',
      requestId,
      {
        fields: changed,
        ...(next.status ? { status: { from, to: next.status } } : {}),
        ...(changed.includes('assignee_id') ? { assignee_id: { from: row.assigneeId, to: next.assigneeId } } : {}),
        changes: changes(
          { status: row.status, response: row.response, assignee_id: row.assigneeId },
          {
            status: next.status ?? row.status,
            response: changed.includes('response') ? next.response : row.response,
            assignee_id: changed.includes('assignee_id') ? next.assigneeId : row.assigneeId,
          },
        ),
      },
      now,
    );
    const link = requestLink(actor.projectId, requestId);
    if (next.status && row.requesterId !== null && row.requesterId !== actor.userId) {
      notices.push({
        userIds: [row.requesterId],
        message: `Your data request "${row.title}" is now ${STATUS_LABELS[next.status as DataRequestStatus]}.`,
        link,
        subject: 'Your data request changed',
      });
    }
    if (next.status === 'cancelled') {
      const stewards =
        row.assigneeId !== null ? [row.assigneeId] : (await listStewards(tx, actor.projectId)).map((s) => s.id);
      notices.push({
        userIds: stewards.filter((id) => id !== actor.userId),
        message: `The data request "${row.title}" was cancelled by its requester.`,
        link,
        subject: 'Data request cancelled',
      });
    }
    if (next.assigneeId && next.assigneeId !== actor.userId) {
      notices.push({
        userIds: [next.assigneeId],
        message: `You were assigned the data request "${row.title}".`,
        link,
        subject: 'Data request assigned to you',
      });
    }
  });
}

/** POST /requests/{requestId}/comments: the requester or a steward writes; the other side hears of it. */
export async function addComment(
  db: Database,
  actor: MonitoringActor,
  requestId: number,
  body: string,
  now: Date,
  notices: RequestNotice[],
): Promise<DataRequestComment> {
  return db.transaction(async (tx) => {
    const { row, mine } = await visibleRequest(tx, actor, requestId);
    const [comment] = await tx
      .insert(monRequestComments)
      .values({ projectId: actor.projectId, requestId, authorId: actor.userId, body, createdAt: now })
      .returning();
    await audit(tx, actor, 'request_commented', requestId, { comment_id: comment!.id }, now);
    // The requester's words go to the assignee (or every steward while nobody is assigned); a steward's to the
    // requester and the assignee.
    const others = mine
      ? row.assigneeId !== null
        ? [row.assigneeId]
        : (await listStewards(tx, actor.projectId)).map((s) => s.id)
      : [row.requesterId, row.assigneeId];
    notices.push({
      userIds: others.filter((id): id is number => id !== null && id !== actor.userId),
      message: `New comment on the data request "${row.title}".`,
      link: requestLink(actor.projectId, requestId),
      subject: 'New comment on a data request',
    });
    const [author] = await tx.select({ name: personName }).from(users).where(eq(users.id, actor.userId));
    return {
      id: comment!.id,
      author: author ? { id: actor.userId, name: author.name } : null,
      body: comment!.body,
      created_at: comment!.createdAt.toISOString(),
    };
  });
}

/** POST /requests/{requestId}/file: a steward delivers a file; an in-progress request becomes delivered. */
export async function deliverFile(
  db: Database,
  actor: MonitoringActor,
  requestId: number,
  file: { data: Buffer; fileName: string; contentType: string },
  now: Date,
  notices: RequestNotice[],
): Promise<void> {
  await db.transaction(async (tx) => {
    const { row, request } = await visibleRequest(tx, actor, requestId, true);
    authorize(requestRules, 'deliver', actor, request);
    if (TAKES_NO_FILE.includes(row.status as DataRequestStatus)) {
      throw new AppError('CONFLICT', `A ${STATUS_LABELS[row.status as DataRequestStatus]} request takes no file.`);
    }
    const fileId = await storeFile(tx, {
      projectId: actor.projectId,
      contentType: file.contentType,
      data: file.data,
      createdBy: actor.userId,
      fileName: file.fileName,
      createdAt: now,
    });
    const delivering = row.status === 'in_progress';
    await tx
      .update(monRequests)
      .set({
        deliveredFileId: fileId,
        deliveredAt: now,
        ...(delivering ? { status: 'delivered' } : {}),
        updatedAt: now,
        updatedBy: actor.userId,
      })
      .where(and(eq(monRequests.projectId, actor.projectId), eq(monRequests.id, requestId)));
    if (row.deliveredFileId !== null) await deleteFile(tx, row.deliveredFileId);
    await audit(
      tx,
      actor,
      'request_file_delivered',
      requestId,
      {
        file_id: fileId,
        file_name: file.fileName,
        size: file.data.length,
        ...(delivering ? { status: { from: row.status, to: 'delivered' } } : {}),
      },
      now,
    );
    if (row.requesterId !== null && row.requesterId !== actor.userId) {
      notices.push({
        userIds: [row.requesterId],
        message: delivering
          ? `Your data request "${row.title}" is now delivered: the file is ready to download.`
          : `A file was added to your data request "${row.title}".`,
        link: requestLink(actor.projectId, requestId),
        subject: 'Your data request has a file',
      });
    }
  });
}

/** GET /requests/{requestId}/file: the delivered file (requester or steward). */
export async function deliveredFile(db: DbOrTx, actor: MonitoringActor, requestId: number) {
  const { row } = await visibleRequest(db, actor, requestId);
  if (row.deliveredFileId === null) throw notFound('No file was delivered yet.');
  const [file] = await db
    .select({ contentType: storedFiles.contentType, fileName: storedFiles.fileName, data: storedFiles.data })
    .from(storedFiles)
    .where(and(eq(storedFiles.projectId, actor.projectId), eq(storedFiles.id, row.deliveredFileId)));
  if (!file) throw notFound('No file was delivered yet.');
  return { ...file, fileName: file.fileName || `request-${requestId}` };
}
