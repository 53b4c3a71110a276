/**
 * What a form says when a value does not fit, in the portal's words rather than the validation library's ("Too big:
 * expected string to have <=254 characters"): zod's error map for every schema that gives no message of its own, on
 * the server and in the browser alike (issue 32). The server installs it at start-up (app.ts), the web before its
 * first form (main.tsx). Written against zod's issue shapes without importing zod, so that the login page, which
 * downloads no zod (decision record 030), can install it for the screens it loads later.
 */

type Size = number | bigint;

/** The parts of a zod issue (raw, as an error map receives it) that the words depend on. */
export interface ValidationIssue {
  code?: string | undefined;
  input?: unknown;
  expected?: string | undefined;
  origin?: string | undefined;
  maximum?: Size | undefined;
  minimum?: Size | undefined;
  inclusive?: boolean | undefined;
  exact?: boolean | undefined;
  format?: string | undefined;
  divisor?: number | undefined;
  values?: readonly unknown[] | undefined;
}

export const REQUIRED_MESSAGE = 'This field is required.';
export const INVALID_MESSAGE = 'This value is not valid.';

const count = (n: Size, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 || n === 1n ? one : many}`;

function wrongType(issue: ValidationIssue): string {
  if (issue.input === undefined || issue.input === null || issue.input === '') return REQUIRED_MESSAGE;
  switch (issue.expected) {
    case 'number':
    case 'bigint':
      return 'Enter a number.';
    case 'int':
      return 'Enter a whole number.';
    case 'string':
      return 'Enter text.';
    case 'boolean':
      return 'Choose yes or no.';
    case 'date':
      return 'Enter a valid date.';
    case 'array':
    case 'set':
      return 'Choose from the list.';
    default:
      return INVALID_MESSAGE;
  }
}

function tooBig(issue: ValidationIssue): string {
  const max = issue.maximum ?? 0;
  const exclusive = issue.inclusive === false;
  switch (issue.origin) {
    case 'string':
      return issue.exact
        ? `Enter exactly ${count(max, 'character', 'characters')}.`
        : `Enter at most ${count(exclusive ? Number(max) - 1 : max, 'character', 'characters')}.`;
    case 'number':
    case 'int':
    case 'bigint':
      return exclusive
        ? `Enter a number below ${max.toLocaleString('en-US')}.`
        : `Enter ${max.toLocaleString('en-US')} or less.`;
    case 'array':
    case 'set':
      return `Choose at most ${count(exclusive ? Number(max) - 1 : max, 'item', 'items')}.`;
    case 'date':
      return 'Enter an earlier date.';
    case 'file':
      return 'The file is too large.';
    default:
      return INVALID_MESSAGE;
  }
}

function tooSmall(issue: ValidationIssue): string {
  const min = issue.minimum ?? 0;
  const exclusive = issue.inclusive === false;
  switch (issue.origin) {
    case 'string':
      if (Number(min) <= 1 && !issue.exact) return REQUIRED_MESSAGE;
      return issue.exact
        ? `Enter exactly ${count(min, 'character', 'characters')}.`
        : `Enter at least ${count(exclusive ? Number(min) + 1 : min, 'character', 'characters')}.`;
    case 'number':
    case 'int':
    case 'bigint':
      return exclusive
        ? `Enter a number above ${min.toLocaleString('en-US')}.`
        : `Enter ${min.toLocaleString('en-US')} or more.`;
    case 'array':
    case 'set':
      return Number(min) <= 1 ? 'Choose at least one.' : `Choose at least ${count(min, 'item', 'items')}.`;
    case 'date':
      return 'Enter a later date.';
    case 'file':
      return 'The file is empty.';
    default:
      return INVALID_MESSAGE;
  }
}

function wrongFormat(issue: ValidationIssue): string {
  switch (issue.format) {
    case 'email':
      return 'Enter a valid email address.';
    case 'url':
      return 'Enter a valid web address, such as https://example.org.';
    case 'date':
      return 'Enter a valid date.';
    case 'datetime':
      return 'Enter a valid date and time.';
    case 'time':
      return 'Enter a valid time.';
    default:
      return 'This value is not in the expected format.';
  }
}

/** The message for one issue: a sentence a person would write, never the library's wording or a code. */
export function validationMessage(issue: ValidationIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return wrongType(issue);
    case 'too_big':
      return tooBig(issue);
    case 'too_small':
      return tooSmall(issue);
    case 'invalid_format':
      return wrongFormat(issue);
    case 'not_multiple_of':
      return `Enter a multiple of ${issue.divisor ?? 1}.`;
    case 'invalid_value':
      return 'Choose one of the options.';
    case 'unrecognized_keys':
      return 'This request has fields the form does not have.';
    default:
      return INVALID_MESSAGE;
  }
}
