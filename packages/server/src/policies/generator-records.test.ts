import { describe, expect, it } from 'vitest';
import {
  draftsPolicies,
  editsTemplates,
  type GeneratorActor,
  generationRules,
  profileActor,
  profileRules,
  templateFacts,
  templateRules,
} from './generator-records.js';
import type { ProjectAccess } from './projects.js';
import { authorize, can, serialize } from './rules.js';
import { appActor, refusal } from './rules-test-kit.js';

const actor = (role: string | null, facts: Partial<GeneratorActor> = {}) => appActor('policy_management', role, facts);

describe('policy generator template rules', () => {
  const own = templateFacts(actor('policy_admin'), { projectId: 1 });
  const library = templateFacts(actor('policy_admin'), { projectId: null });

  it('reads a library template as the reading project’s, marked as the library’s', () => {
    expect(own).toEqual({ projectId: 1, library: false });
    expect(library).toEqual({ projectId: 1, library: true });
    expect(templateFacts(actor('author', { projectId: 7 }), { projectId: null })).toEqual({
      projectId: 7,
      library: true,
    });
  });

  it('lets template editors change the project’s own template and only copy the library’s', () => {
    expect(serialize(templateRules, actor('policy_admin'), own)).toEqual({ edit: true, copy: true, generate: true });
    expect(serialize(templateRules, actor('policy_admin'), library)).toEqual({
      edit: false,
      copy: true,
      generate: true,
    });
    expect(serialize(templateRules, actor('author'), own)).toEqual({ edit: false, copy: false, generate: true });
    expect(refusal(() => authorize(templateRules, 'edit', actor('author'), own))).toEqual({
      status: 403,
      message: 'Your role is not permitted to access this section.',
    });
  });

  it('keeps policy drafts to authors and administrators, with the reason', () => {
    expect(refusal(() => authorize(templateRules, 'generate', actor('reviewer'), library))).toEqual({
      status: 403,
      message: 'Only policy authors and administrators can create policy drafts.',
    });
    expect(refusal(() => authorize(templateRules, 'generate', actor('author'), library))).toBeNull();
    expect(draftsPolicies(actor('reader'))).toBe(false);
    expect(editsTemplates(actor('author'))).toBe(false);
    expect(editsTemplates(actor(null, { isSuperadmin: true }))).toBe(true);
  });

  it('answers 404 for another project’s template', () => {
    expect(refusal(() => authorize(templateRules, 'copy', actor('policy_admin'), { ...own, projectId: 2 }))).toEqual({
      status: 404,
      message: 'Template not found.',
    });
  });
});

describe('policy generator generation rules', () => {
  it('lets authors and administrators regenerate, and says why a reviewer may not', () => {
    expect(can(generationRules, 'regenerate', actor('author'), { projectId: 1 })).toBe(true);
    expect(can(generationRules, 'regenerate', actor('policy_admin'), { projectId: 1 })).toBe(true);
    expect(refusal(() => authorize(generationRules, 'regenerate', actor('reviewer'), { projectId: 1 }))).toEqual({
      status: 403,
      message: 'Only policy authors and administrators can create policy drafts.',
    });
  });

  it('answers 404 for another project’s generation', () => {
    expect(refusal(() => authorize(generationRules, 'regenerate', actor('author'), { projectId: 2 }))).toEqual({
      status: 404,
      message: 'Generation not found.',
    });
  });
});

describe('facility profile rules', () => {
  const access = (projectRole: ProjectAccess['projectRole'], isSuperadmin = false) =>
    ({ project: { id: 1 }, projectRole, isSuperadmin }) as unknown as ProjectAccess;

  it('lets project administrators and superadmins change the profile; members are told who may', () => {
    expect(profileActor(access('admin'))).toEqual({ projectId: 1, projectAdmin: true });
    expect(can(profileRules, 'edit', profileActor(access(null, true)), { projectId: 1 })).toBe(true);
    expect(refusal(() => authorize(profileRules, 'edit', profileActor(access('simple')), { projectId: 1 }))).toEqual({
      status: 403,
      message: 'Only project administrators can change the facility profile.',
    });
  });

  it('answers 404 for another project’s profile', () => {
    expect(refusal(() => authorize(profileRules, 'edit', profileActor(access('admin')), { projectId: 2 }))).toEqual({
      status: 404,
      message: 'Facility profile not found.',
    });
  });
});
