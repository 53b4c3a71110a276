/**
 * The words of the standards module (issue 11; DOMAIN.md 3.1-3.5): node types, results kept apart from workflow
 * status, text policies of frameworks, standards roles and what links to a standard element.
 */

/** Kinds of nodes in a framework tree: a CMS condition has standards and elements; a TJC chapter has standards and EPs. */
export const STD_NODE_TYPES = ['chapter', 'section', 'condition', 'standard', 'element', 'ep', 'tag', 'goal'] as const;
export type StdNodeType = (typeof STD_NODE_TYPES)[number];

/** Where an element stands (the answer), separate from where its work stands (STD_STATUSES). */
export const STD_RESULTS = [
  'not_assessed',
  'compliant',
  'partially_compliant',
  'non_compliant',
  'not_applicable',
] as const;
export type StdResult = (typeof STD_RESULTS)[number];

export const STD_RESULT_LABELS: Record<StdResult, string> = {
  not_assessed: 'Not assessed',
  compliant: 'Compliant',
  partially_compliant: 'Partially compliant',
  non_compliant: 'Non-compliant',
  not_applicable: 'Not applicable',
};

export const STD_STATUSES = ['to_do', 'in_progress', 'in_review', 'done'] as const;
export type StdStatus = (typeof STD_STATUSES)[number];

export const STD_STATUS_LABELS: Record<StdStatus, string> = {
  to_do: 'To do',
  in_progress: 'In progress',
  in_review: 'In review',
  done: 'Done',
};

/**
 * What a framework may store of its publisher's text (the licence rule): public-domain text (CMS, a US government
 * work) ships with the product; copyrighted frameworks (Joint Commission, DNV) keep identifiers only, and each
 * facility writes its own wording; a facility's own framework keeps the text it imports, inside the project.
 */
export const STD_TEXT_POLICIES = ['public_domain', 'identifiers_only', 'tenant_text'] as const;
export type StdTextPolicy = (typeof STD_TEXT_POLICIES)[number];

/** Standards roles (manage-users). Project admins and superadmins act as standards admins. */
export const STD_ROLES = [
  'standards_admin',
  'chapter_lead',
  'owner',
  'contributor',
  'mock_assessor',
  'viewer',
] as const;
export type StdRole = (typeof STD_ROLES)[number];

export const STD_ROLE_LABELS: Record<StdRole, string> = {
  standards_admin: 'Standards admin',
  chapter_lead: 'Chapter lead',
  owner: 'Owner',
  contributor: 'Contributor',
  mock_assessor: 'Mock assessor',
  viewer: 'Viewer',
};

export const STD_ROLE_HELP: Record<StdRole, string> = {
  standards_admin: 'Creates assessments, manages people and changes every element.',
  chapter_lead: 'Changes the elements of the chapters they lead and assigns their owners.',
  owner: 'Assesses the elements they own and links their evidence.',
  contributor: 'Reads everything, comments and links evidence to the elements they own.',
  mock_assessor: 'Reads everything and comments (findings arrive with the survey tools).',
  viewer: 'Reads everything.',
};

/** What a standard element links to (one link table: the closed loop, DOMAIN.md 0.1). */
export const STD_LINK_TARGETS = ['policy', 'measure', 'cr_program', 'cr_question'] as const;
export type StdLinkTarget = (typeof STD_LINK_TARGETS)[number];

/** Kinds of assessments: a self-assessment, a mock survey, or the record of a real survey. */
export const STD_ASSESSMENT_KINDS = ['self', 'mock', 'survey'] as const;
export type StdAssessmentKind = (typeof STD_ASSESSMENT_KINDS)[number];

/**
 * Publishers whose text is copyrighted: a framework coded like theirs never stores official text. The code ends
 * there or goes on after anything but a letter or digit (TJC-HAP, TJC_HAP, DNV.NIAHO; not TJCX).
 */
export const STD_COPYRIGHTED_CODES = /^(TJC|JC|JCAHO|JCI|DNV|NIAHO|HFAP|AAAHC|CIHQ|ACHC)(?![A-Za-z0-9])/i;
