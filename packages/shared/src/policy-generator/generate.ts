import { isRealDay } from '../schemas/common.js';
import { isEmptyHtml, renderTemplate, type TemplateValue, type TemplateValues } from './render.js';
import {
  TEMPLATE_SECTION_TITLES,
  TEMPLATE_SECTIONS,
  type TemplateSectionKey,
  type VariableType,
} from './vocabulary.js';

/**
 * From a template, a profile and the wizard's answers to a policy's HTML: the same steps in the preview and on the
 * server (DOMAIN.md 4.6 "preview must match output exactly").
 */

export interface VariableDef {
  key: string;
  label: string;
  type: VariableType;
  required: boolean;
  default: string | number | boolean | null;
  help: string;
  options: readonly string[];
}

export type Answer = string | number | boolean | null;
export type Answers = Readonly<Record<string, Answer | undefined>>;

/** Names of departments and people the answers may point at (ids of this project only). */
export interface AnswerLookup {
  departments: ReadonlyMap<number, string>;
  users: ReadonlyMap<number, string>;
}

export interface ResolvedAnswers {
  values: Record<string, TemplateValue>;
  /** Field errors by variable key (a wrong type, an unknown department, a day that does not exist). */
  errors: Record<string, string>;
  /** Required variables without an answer: the draft may be saved, not sent for review. */
  missing: string[];
}

export const ANSWER_TEXT_MAX = 2000;

const blank = (a: Answer | undefined) => a === undefined || a === null || (typeof a === 'string' && a.trim() === '');

/** Checks each answer against its variable and turns ids into names. Unknown keys are ignored. */
export function resolveAnswers(
  variables: readonly VariableDef[],
  answers: Answers,
  lookup: AnswerLookup,
): ResolvedAnswers {
  const values: Record<string, TemplateValue> = {};
  const errors: Record<string, string> = {};
  const missing: string[] = [];
  for (const v of variables) {
    const answer = answers[v.key];
    if (blank(answer)) {
      if (v.type === 'boolean') values[v.key] = false;
      else if (v.required) missing.push(v.key);
      else values[v.key] = '';
      continue;
    }
    const fail = (message: string) => {
      errors[v.key] = message;
      if (v.required) missing.push(v.key);
    };
    switch (v.type) {
      case 'text':
        if (typeof answer !== 'string') fail(`${v.label} is text.`);
        else if (answer.length > ANSWER_TEXT_MAX) fail(`${v.label} is at most ${ANSWER_TEXT_MAX} characters.`);
        else values[v.key] = answer.trim();
        break;
      case 'date':
        if (typeof answer !== 'string' || !isRealDay(answer)) fail(`${v.label} is a date (YYYY-MM-DD).`);
        else values[v.key] = answer;
        break;
      case 'select':
        if (typeof answer !== 'string' || !v.options.includes(answer)) fail(`Choose one of the options of ${v.label}.`);
        else values[v.key] = answer;
        break;
      case 'number':
        if (typeof answer !== 'number' || !Number.isFinite(answer) || Math.abs(answer) > 1e9) {
          fail(`${v.label} is a number.`);
        } else values[v.key] = answer;
        break;
      case 'boolean':
        if (typeof answer !== 'boolean') fail(`${v.label} is yes or no.`);
        else values[v.key] = answer;
        break;
      case 'department':
      case 'user': {
        const names = v.type === 'department' ? lookup.departments : lookup.users;
        const name = typeof answer === 'number' ? names.get(answer) : undefined;
        if (name === undefined) {
          fail(v.type === 'department' ? 'Choose a department of this project.' : 'Choose a member of this project.');
        } else values[v.key] = name;
        break;
      }
    }
  }
  return { values, errors, missing };
}

/** The answers a new wizard starts from: each variable's default. */
export function defaultAnswers(variables: readonly VariableDef[]): Record<string, Answer> {
  return Object.fromEntries(variables.map((v) => [v.key, v.default ?? (v.type === 'boolean' ? false : null)]));
}

export interface RenderedSection {
  key: TemplateSectionKey;
  title: string;
  html: string;
}

export interface AssembledPolicy {
  sections: RenderedSection[];
  /** The policy text: each section that is not empty, under its heading. */
  html: string;
  unresolved: string[];
}

/**
 * Renders the sections in their fixed order and joins them under headings. `overrides` replace a section's
 * rendered HTML (a suggestion the author accepted); a section that renders to nothing is left out.
 */
export function assemblePolicy(
  sections: readonly { key: TemplateSectionKey; html: string }[],
  values: TemplateValues,
  options: { markUnresolved?: boolean; overrides?: Partial<Record<TemplateSectionKey, string>> } = {},
): AssembledPolicy {
  const unresolved: string[] = [];
  const rendered: RenderedSection[] = [];
  for (const key of TEMPLATE_SECTIONS) {
    const section = sections.find((s) => s.key === key);
    if (!section) continue;
    const override = options.overrides?.[key];
    const result =
      override === undefined
        ? renderTemplate(section.html, values, { markUnresolved: options.markUnresolved })
        : renderTemplate(override, {}, { markUnresolved: options.markUnresolved });
    for (const name of result.unresolved) if (!unresolved.includes(name)) unresolved.push(name);
    if (isEmptyHtml(result.html)) continue;
    rendered.push({ key, title: TEMPLATE_SECTION_TITLES[key], html: result.html });
  }
  const html = rendered.map((s) => `<h2>${s.title}</h2>${s.html}`).join('');
  return { sections: rendered, html, unresolved };
}
