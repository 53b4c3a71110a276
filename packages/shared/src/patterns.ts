/** Route and value patterns of SPEC section 5, shared by the router, the server and forms. */
export const PROJECT_ID_PATTERN = /^\d{1,10}$/;
export const SLUG_PATTERN = /^[A-Za-z0-9_-]{1,50}$/;
/** Default check for stored and query values: up to 200 word characters. */
export const DEFAULT_VALUE_PATTERN = /^\w{1,200}$/;

export function isProjectId(value: string): boolean {
  return PROJECT_ID_PATTERN.test(value);
}

/** A record's id in a path (a document, a page, a programme...): 1 to 10 digits, as a project id. */
export function isRecordId(value: string): boolean {
  return PROJECT_ID_PATTERN.test(value);
}

export function isSlug(value: string): boolean {
  return SLUG_PATTERN.test(value);
}

/**
 * A project as a path names it: its id or its slug. A value of digits only is read as an id, so one of more than 10
 * digits names no project and its address is not found (SPEC section 5), rather than a slug no project can have.
 */
export function isProjectRef(value: string): boolean {
  return isProjectId(value) || (isSlug(value) && !/^\d+$/.test(value));
}
