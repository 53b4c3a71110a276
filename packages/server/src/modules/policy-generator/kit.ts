import { createHash } from 'node:crypto';
import type { PolicySection } from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import type { DbOrTx } from '../../db/client.js';
import { projectAudit } from '../../lib/audit.js';
import { errorAnswers } from '../../lib/error-answers.js';
import { notFound } from '../../lib/errors.js';
import { requireUser } from '../../plugins/session.js';
import { appAccess } from '../../policies/app-access.js';
import type { GeneratorActor } from '../../policies/generator-records.js';
import { type ProjectAccess, projectAccess } from '../../policies/projects.js';

/**
 * What the policy generator's routes share (docs/policy-generator.md "Who may call what"). The generator writes
 * into policy management, so it is guarded by policy management's permission engine, over two sections of its own:
 * `policy-generator` (use templates, generate; authors and policy administrators by default) and
 * `generator-templates` (edit the project's templates; policy administrators). The project must have both apps on
 * (404 otherwise, like any app that is off). The facility profile belongs to the project: its members read it,
 * project administrators change it.
 */

export const P = '/api/projects/:projectId/policy-generator';
export const tags = ['policy generator'];
export const errors = errorAnswers(400, 401, 403, 404, 409);

export { EDIT_TEMPLATES, GENERATE, type GeneratorActor } from '../../policies/generator-records.js';

const SWITCHED_OFF = 'The policy generator is not switched on for this project.';

/** The project, when the caller may see it and the generator is on (404 otherwise). */
export async function generatorProject(db: DbOrTx, request: FastifyRequest, projectId: number): Promise<ProjectAccess> {
  const access = await projectAccess(db, requireUser(request), projectId);
  if (!access.project.activeApps.includes('policy_generator')) throw notFound(SWITCHED_OFF);
  return access;
}

/** A caller allowed to use a section of the generator in the request's project. */
export async function generatorAccess(
  db: DbOrTx,
  request: FastifyRequest & { params: { projectId: number } },
  section: PolicySection,
): Promise<GeneratorActor> {
  await generatorProject(db, request, request.params.projectId);
  return appAccess(db, 'policy_management', requireUser(request), request, request.params.projectId, section);
}

export const generatorAudit = projectAudit('policy_generator');

/** SHA-256 of a value's JSON with sorted keys (the same inputs always hash the same). */
export function hashOf(value: unknown): string {
  return createHash('sha256').update(stableJson(value)).digest('hex');
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
