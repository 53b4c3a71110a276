import { ACCESS_DENIED, type PolicySection } from '@portal/shared';
import { mayUseSection } from './app-access.js';
import { EDIT_DOCUMENTS, type PolicyActor } from './policy-management.js';
import { isProjectAdmin, type ProjectAccess } from './projects.js';
import { allow } from './rules.js';

/**
 * What a person may do to the policy generator's records: a template, a generation (a policy written from a
 * template), and the project's facility profile (docs/policy-generator.md "Who may call what"; rules.ts says how a
 * rule is asked). The generator is guarded by policy management's permission engine, over two sections of its own;
 * which template versions a person sees at all (drafts only for template editors) is decided where they are read.
 */

/** Use templates and generate policies (authors and policy administrators by default). */
export const GENERATE = 'policy-generator' satisfies PolicySection;
/** Edit the project's templates (policy administrators by default). */
export const EDIT_TEMPLATES = 'generator-templates' satisfies PolicySection;

export type GeneratorActor = PolicyActor;

/** Whoever writes policy drafts (the edit-documents section): the generator's drafts are policy drafts. */
export const draftsPolicies = (actor: GeneratorActor) => mayUseSection(actor, EDIT_DOCUMENTS);
/** Whoever edits the project's templates (the generator-templates section). */
export const editsTemplates = (actor: GeneratorActor) => mayUseSection(actor, EDIT_TEMPLATES);

const NOT_AN_AUTHOR = 'Only policy authors and administrators can create policy drafts.';

/**
 * What the rules need to know of a template. A library template belongs to no project and is read by every one:
 * its facts carry the project reading it.
 */
export interface TemplateFacts {
  projectId: number;
  library: boolean;
}

/** The facts of a template row (`projectId` null for the library's). */
export const templateFacts = (actor: GeneratorActor, template: { projectId: number | null }): TemplateFacts => ({
  projectId: template.projectId ?? actor.projectId,
  library: template.projectId === null,
});

/**
 * A template: template editors copy any template into the project and change the project's own (its draft, its
 * publication, discarding the draft); the library's templates are never changed, only copied. Authors and
 * administrators write policy drafts from a template.
 */
export const templateRules = allow<GeneratorActor, TemplateFacts, 'edit' | 'copy' | 'generate'>(
  'Template',
  ACCESS_DENIED.forbidden,
  {
    edit: (actor, template) => !template.library && editsTemplates(actor),
    copy: (actor) => editsTemplates(actor),
    generate: (actor) => draftsPolicies(actor) || NOT_AN_AUTHOR,
  },
);

/** What the rules need to know of a policy's newest generation: its project. */
export interface GenerationFacts {
  projectId: number;
}

/**
 * A generation: authors and administrators bring a generated policy forward to a newer template version (or other
 * answers) as a new draft. Whether it can be brought forward now (not archived, not out for review) is the
 * generation's state, answered as a conflict.
 */
export const generationRules = allow<GeneratorActor, GenerationFacts, 'regenerate'>('Generation', NOT_AN_AUTHOR, {
  regenerate: (actor) => draftsPolicies(actor),
});

/** Who changes a project's facility profile: the project's administrators (superadmins among them). */
export interface ProfileActor {
  projectId: number;
  projectAdmin: boolean;
}

export const profileActor = (access: ProjectAccess): ProfileActor => ({
  projectId: access.project.id,
  projectAdmin: isProjectAdmin(access),
});

/** The facility profile is one per project: its facts are its project. */
export interface ProfileFacts {
  projectId: number;
}

/** The facility profile: every member reads it; project administrators change it. */
export const profileRules = allow<ProfileActor, ProfileFacts, 'edit'>(
  'Facility profile',
  'Only project administrators can change the facility profile.',
  { edit: (actor) => actor.projectAdmin },
);
