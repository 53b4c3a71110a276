import type { PermissionMatrix } from '../api/get-permission-matrix';

/** Local edits not saved yet: a section path to the roles it will allow. */
export type MatrixEdits = Record<string, string[]>;

export interface MatrixRow {
  path: string;
  /** The roles allowed once saved (the edit, else the server's). */
  allowed: string[];
  /** The roles the server has now. */
  saved: string[];
  /** The server says the row differs from the app's defaults. */
  changedFromDefault: boolean;
  /** Edited here and not saved yet. */
  unsaved: boolean;
  /** No role allowed: only superadmins pass. */
  locked: boolean;
  /** Locked by the edit (it was not before). */
  newlyLocked: boolean;
}

const lower = (roles: readonly string[]) => new Set(roles.map((role) => role.toLowerCase()));

/** Roles are compared case-insensitively (SPEC section 6) and their order does not matter. */
export function sameRoles(a: readonly string[], b: readonly string[]): boolean {
  const left = lower(a);
  const right = lower(b);
  return left.size === right.size && [...left].every((role) => right.has(role));
}

export function hasRole(allowed: readonly string[], role: string): boolean {
  return lower(allowed).has(role.toLowerCase());
}

/** Turns one role on or off; roles outside the columns are kept; the result follows the columns' order. */
export function setRole(allowed: readonly string[], role: string, on: boolean, columns: readonly string[]): string[] {
  const others = allowed.filter((item) => item.toLowerCase() !== role.toLowerCase());
  const next = on ? [...others, role] : others;
  const rank = (item: string) => {
    const index = columns.findIndex((column) => column.toLowerCase() === item.toLowerCase());
    return index < 0 ? columns.length : index;
  };
  return [...next].sort((a, b) => rank(a) - rank(b));
}

export function buildRows(matrix: PermissionMatrix, edits: MatrixEdits): MatrixRow[] {
  return matrix.sections.map((section) => {
    const edit = edits[section.path];
    const unsaved = edit !== undefined && !sameRoles(edit, section.allowed_roles);
    const allowed = unsaved ? edit : section.allowed_roles;
    const locked = unsaved ? allowed.length === 0 : section.locked || allowed.length === 0;
    return {
      path: section.path,
      allowed,
      saved: section.allowed_roles,
      changedFromDefault: !section.is_default,
      unsaved,
      locked,
      newlyLocked: unsaved && locked && section.allowed_roles.length > 0,
    };
  });
}
