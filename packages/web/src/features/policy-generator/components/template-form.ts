import {
  PROFILE_FLAGS,
  PROFILE_NAMES,
  TEMPLATE_SECTIONS,
  type TemplateBody,
  type TemplateSectionKey,
  type TemplateVersion,
  templateBodySchema,
  type VariableType,
} from '@portal/shared';
import { ApiError } from '../../../lib/api';

/**
 * The template editor's form (DOMAIN.md 4.4 "template editor"): the body of a version as the editor holds it (rows
 * carry a uid for React and focus), its conversion to the PUT body, and errors keyed by the contract's paths
 * ("title", "sections.2.html", "variables.0.key", "standards.1.ref_id").
 */

export type ProfileFlag = (typeof PROFILE_FLAGS)[number];
export type VariableDefault = string | number | boolean | null;

export interface VariableRow {
  uid: string;
  key: string;
  label: string;
  type: VariableType;
  required: boolean;
  default: VariableDefault;
  help: string;
  options: string[];
}

export interface StandardRow {
  uid: string;
  framework: string;
  ref_id: string;
}

export interface SectionRow {
  key: TemplateSectionKey;
  html: string;
}

export interface TemplateForm {
  title: string;
  category: string;
  description: string;
  requires_flags: ProfileFlag[];
  /** Always in TEMPLATE_SECTIONS order, so an index in a server error is the index shown. */
  sections: SectionRow[];
  variables: VariableRow[];
  standards: StandardRow[];
}

/** Errors by the contract's dotted path. */
export type FormErrors = Record<string, string>;

export const DEFAULT_FRAMEWORK = 'CMS-482';

let counter = 0;
export const newUid = (prefix: string) => `${prefix}${++counter}`;

const isFlag = (name: string): name is ProfileFlag => (PROFILE_FLAGS as readonly string[]).includes(name);

export function sortSections(sections: readonly SectionRow[]): SectionRow[] {
  return TEMPLATE_SECTIONS.flatMap((key) => sections.filter((s) => s.key === key).slice(0, 1));
}

/** The form for a version's body (a draft, or the published version a new draft starts from). */
export function formFromBody(body: TemplateVersion['body'] | null, fallbackTitle = ''): TemplateForm {
  if (!body) {
    return {
      title: fallbackTitle,
      category: '',
      description: '',
      requires_flags: [],
      sections: [{ key: 'purpose', html: '' }],
      variables: [],
      standards: [],
    };
  }
  return {
    title: body.title,
    category: body.category,
    description: body.description,
    requires_flags: body.requires_flags.filter(isFlag),
    sections: sortSections(body.sections.map((s) => ({ key: s.key, html: s.html }))),
    variables: body.variables.map((v) => ({ ...v, options: [...v.options], uid: newUid('v') })),
    standards: body.standards.map((s) => ({ ...s, uid: newUid('s') })),
  };
}

/** The default a variable of this type starts with (people and departments have none). */
export function emptyDefault(type: VariableType): VariableDefault {
  return type === 'boolean' ? false : null;
}

/** The PUT body: rows without their uids, defaults and options only where the type has them. */
export function bodyFromForm(form: TemplateForm): TemplateBody {
  return {
    title: form.title,
    category: form.category,
    description: form.description,
    requires_flags: [...form.requires_flags],
    sections: sortSections(form.sections).map((s) => ({ key: s.key, html: s.html })),
    variables: form.variables.map(({ uid: _uid, ...v }) => ({
      ...v,
      default:
        v.type === 'department' || v.type === 'user'
          ? null
          : typeof v.default === 'string' && v.default.trim() === ''
            ? null
            : v.default,
      options: v.type === 'select' ? [...v.options] : [],
    })),
    standards: form.standards.map(({ uid: _uid, ...s }) => s),
  };
}

/** What is compared to tell whether the form has unsaved changes. */
export const snapshot = (form: TemplateForm) => JSON.stringify(bodyFromForm(form));

/** Names a section may use: the profile's variables and flags, and this template's variable keys. */
export function knownNames(variables: readonly { key: string }[]): Set<string> {
  return new Set<string>([...PROFILE_NAMES, ...variables.map((v) => v.key.trim()).filter(Boolean)]);
}

/** Checks the form as the server will; the body to send, or the errors by path. */
export function validateForm(form: TemplateForm): { ok: true; body: TemplateBody } | { ok: false; errors: FormErrors } {
  const parsed = templateBodySchema.safeParse(bodyFromForm(form));
  if (parsed.success) return { ok: true, body: parsed.data };
  const errors: FormErrors = {};
  for (const issue of parsed.error.issues) {
    const path = issue.path.map(String).join('.') || 'body';
    errors[path] ??= issue.message;
  }
  return { ok: false, errors };
}

/** The first message per path of a 400/409/422 answer ({message, errors: {"variables.0.key": [msg]}}). */
export function serverErrors(error: unknown): FormErrors {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return {};
  const raw = (error.body as { errors?: unknown } | null)?.errors;
  if (!raw || typeof raw !== 'object') return {};
  const found: FormErrors = {};
  for (const [path, value] of Object.entries(raw as Record<string, unknown>)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string' && first.trim()) found[path] = first;
  }
  return found;
}

/** Errors without those under `prefix` (a list whose rows moved: their indexes no longer match). */
export function withoutPrefix(errors: FormErrors, prefix: string): FormErrors {
  const stale = (path: string) => path === prefix || path.startsWith(`${prefix}.`);
  // The same object when nothing goes, so the parts of the form that did not change do not render again.
  if (!Object.keys(errors).some(stale)) return errors;
  return Object.fromEntries(Object.entries(errors).filter(([path]) => !stale(path)));
}

/** A change to one list of the form: a function of the latest rows, and the error paths it makes stale. */
export type ListChange<T> = (update: (rows: T[]) => T[], stale: string) => void;

/** Paths the editor shows at a field; anything else is listed above the form. */
export function isPlacedPath(path: string): boolean {
  return (
    /^(title|category|description|requires_flags|sections|variables|standards)$/.test(path) ||
    /^sections\.\d+(\.(key|html))?$/.test(path) ||
    /^variables\.\d+\.(key|label|type|required|default|help|options)(\.\d+)?$/.test(path) ||
    /^standards\.\d+\.(framework|ref_id)$/.test(path)
  );
}

/** The message for a variable's field, including an option's own ("variables.0.options.1"). */
export function rowError(errors: FormErrors, prefix: string, field: string): string | undefined {
  if (errors[`${prefix}.${field}`]) return errors[`${prefix}.${field}`];
  const nested = Object.keys(errors).find((path) => path.startsWith(`${prefix}.${field}.`));
  return nested ? errors[nested] : undefined;
}
