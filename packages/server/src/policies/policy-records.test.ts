import { describe, expect, it } from 'vitest';
import type { PolicyActor } from './policy-management.js';
import { type DocumentFacts, documentFacts, documentRules, type VersionFacts, versionRules } from './policy-records.js';
import { authorize, can, serialize } from './rules.js';
import { appActor, refusal } from './rules-test-kit.js';

const actor = (role: string | null, facts: Partial<PolicyActor> = {}) => appActor('policy_management', role, facts);

describe('policy document rules', () => {
  const live: DocumentFacts = { projectId: 1, archived: false };
  const archived: DocumentFacts = { projectId: 1, archived: true };

  it('reads its facts from a document row', () => {
    expect(documentFacts({ projectId: 3, status: 'archived' })).toEqual({ projectId: 3, archived: true });
    expect(documentFacts({ projectId: 3, status: 'published' })).toEqual({ projectId: 3, archived: false });
  });

  it('lets a policy admin edit, archive and renumber a live document, and only restore an archived one', () => {
    expect(serialize(documentRules, actor('policy_admin'), live)).toEqual({
      edit: true,
      archive: true,
      restore: false,
      renumber: true,
    });
    expect(serialize(documentRules, actor('policy_admin'), archived)).toEqual({
      edit: false,
      archive: false,
      restore: true,
      renumber: false,
    });
  });

  it('lets an author edit a live document but neither archive nor renumber it; readers change nothing', () => {
    expect(serialize(documentRules, actor('author'), live)).toEqual({
      edit: true,
      archive: false,
      restore: false,
      renumber: false,
    });
    expect(serialize(documentRules, actor('reader'), live)).toEqual({
      edit: false,
      archive: false,
      restore: false,
      renumber: false,
    });
    expect(serialize(documentRules, actor(null, { isSuperadmin: true }), live)).toMatchObject({ renumber: true });
  });

  it('says why only those who manage numbering change a number, and why a reader may not archive', () => {
    expect(refusal(() => authorize(documentRules, 'renumber', actor('author'), live))).toEqual({
      status: 403,
      message: 'Only those who manage numbering can change a policy number.',
    });
    expect(refusal(() => authorize(documentRules, 'archive', actor('reader'), live))).toEqual({
      status: 403,
      message: 'Your policy management role does not allow this.',
    });
    expect(refusal(() => authorize(documentRules, 'renumber', actor('policy_admin'), live))).toBeNull();
  });

  it('answers 404 for another project’s document, even to a superadmin', () => {
    const elsewhere = { projectId: 2, archived: false };
    expect(refusal(() => authorize(documentRules, 'edit', actor('policy_admin'), elsewhere))).toEqual({
      status: 404,
      message: 'Policy not found.',
    });
    expect(can(documentRules, 'edit', actor(null, { isSuperadmin: true }), elsewhere)).toBe(false);
  });
});

describe('policy version rules: who answers a round', () => {
  const version = (facts: Partial<VersionFacts> = {}): VersionFacts => ({
    projectId: 1,
    archived: false,
    state: 'in_review',
    authorId: 9,
    asked: { review: true, signature: false },
    allowSelfSigning: false,
    ...facts,
  });
  const notAsked = { review: false, signature: false };

  it('lets the reviewers asked answer a review, and tells anyone else they are not a reviewer', () => {
    expect(can(versionRules, 'approve', actor('reviewer'), version())).toBe(true);
    expect(can(versionRules, 'request_changes', actor('reviewer'), version())).toBe(true);
    for (const action of ['approve', 'request_changes'] as const) {
      expect(
        refusal(() => authorize(versionRules, action, actor('policy_admin'), version({ asked: notAsked }))),
      ).toEqual({ status: 403, message: 'You are not a reviewer of this version.' });
    }
    // Outside review nobody answers one, asked or not.
    expect(can(versionRules, 'approve', actor('reviewer'), version({ state: 'draft' }))).toBe(false);
  });

  it('tells someone not asked to sign that they are not, before anything about self-signing', () => {
    const pending = version({ state: 'pending_signature', authorId: 5 });
    for (const action of ['sign', 'decline'] as const) {
      expect(refusal(() => authorize(versionRules, action, actor('signer'), { ...pending, asked: notAsked }))).toEqual({
        status: 403,
        message: 'You are not asked to sign this version.',
      });
    }
    const asked = { ...pending, asked: { review: false, signature: true } };
    expect(can(versionRules, 'decline', actor('signer'), asked)).toBe(true);
    expect(refusal(() => authorize(versionRules, 'sign', actor('signer'), asked))).toEqual({
      status: 403,
      message: 'You wrote this version: another signer must sign it.',
    });
  });

  it('lets authors send a draft to review and withdraw it, and serializes the same booleans as before', () => {
    expect(serialize(versionRules, actor('author'), version({ state: 'draft', asked: notAsked }))).toEqual({
      send_to_review: true,
      withdraw: false,
      approve: false,
      request_changes: false,
      sign: false,
      decline: false,
    });
    expect(serialize(versionRules, actor('reader'), version({ asked: notAsked }))).toEqual({
      send_to_review: false,
      withdraw: false,
      approve: false,
      request_changes: false,
      sign: false,
      decline: false,
    });
    expect(refusal(() => authorize(versionRules, 'withdraw', actor('author'), version({ projectId: 2 })))).toEqual({
      status: 404,
      message: 'Policy not found.',
    });
  });
});
