import { describe, expect, it } from 'vitest';
import type { DbOrTx } from '../db/client.js';
import { authorize, can, serialize } from './rules.js';
import { refusal } from './rules-test-kit.js';
import type { StandardsActor } from './standards.js';
import { assignmentFacts, assignmentRules, tracerRules } from './standards-records.js';

const actor = (role: StandardsActor['role'], userId = 5): StandardsActor => ({
  userId,
  projectId: 1,
  isSuperadmin: false,
  role,
  ip: null,
  requestId: null,
});

describe('standards tracer rules', () => {
  const here = { projectId: 1 };

  it('lets standards admins, chapter leads and mock assessors record and correct tracers', () => {
    for (const role of ['standards_admin', 'chapter_lead', 'mock_assessor'] as const) {
      expect(serialize(tracerRules, actor(role), here), role).toEqual({ create: true, edit: true });
    }
    for (const role of ['owner', 'contributor', 'viewer'] as const) {
      expect(serialize(tracerRules, actor(role), here), role).toEqual({ create: false, edit: false });
    }
  });

  it('refuses an owner with the standards refusal, and another project’s tracer with 404', () => {
    expect(refusal(() => authorize(tracerRules, 'create', actor('owner'), here))).toEqual({
      status: 403,
      message: 'Your standards role does not allow this.',
    });
    expect(refusal(() => authorize(tracerRules, 'edit', actor('standards_admin'), { projectId: 2 }))).toEqual({
      status: 404,
      message: 'Tracer not found.',
    });
  });
});

describe('standards assignment rules', () => {
  const node = (led: boolean, projectId = 1) => ({ projectId, led });

  it('lets standards admins assign anywhere and chapter leads only below the chapters they lead', () => {
    expect(can(assignmentRules, 'assign', actor('standards_admin'), node(false))).toBe(true);
    expect(can(assignmentRules, 'assign', actor('chapter_lead'), node(true))).toBe(true);
    expect(refusal(() => authorize(assignmentRules, 'assign', actor('chapter_lead'), node(false)))).toEqual({
      status: 403,
      message: 'You can assign people only below the chapters you lead.',
    });
  });

  it('never lets other roles assign, even where `led` were set', () => {
    expect(refusal(() => authorize(assignmentRules, 'assign', actor('owner'), node(true)))).toEqual({
      status: 403,
      message: 'Your standards role does not allow this.',
    });
    expect(can(assignmentRules, 'assign', actor('mock_assessor'), node(true))).toBe(false);
  });

  it('answers 404 for another project’s assessment, even to a standards admin', () => {
    expect(refusal(() => authorize(assignmentRules, 'assign', actor('standards_admin'), node(true, 2)))).toEqual({
      status: 404,
      message: 'Assessment not found.',
    });
  });

  it('asks nothing of the database for anyone but a chapter lead', async () => {
    const untouched = new Proxy({} as DbOrTx, {
      get: () => {
        throw new Error('The database was asked.');
      },
    });
    const facts = { projectId: 1, assessmentId: 3, nodeId: 4 };
    expect(await assignmentFacts(untouched, actor('standards_admin'), facts)).toEqual({ projectId: 1, led: false });
    await expect(assignmentFacts(untouched, actor('chapter_lead'), facts)).rejects.toThrow('The database was asked.');
  });
});
