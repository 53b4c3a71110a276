/**
 * Dotted policy numbers ("1", "1.2", "1.2.10", with an optional department prefix: "NUR-1.2"). Numbers are labels,
 * never keys: documents are linked by id, and a number can change (renumbering keeps history on the server).
 * The same functions run in the web (previews) and on the server (the answer that counts).
 */

export const PREFIX_SEPARATORS = ['-', '.'] as const;
export type PrefixSeparator = (typeof PREFIX_SEPARATORS)[number];
export const MAX_LEVELS = 6;

export interface NumberingScheme {
  /** How many numeric levels a number may have (1.2.3 has three). */
  levels: number;
  /** When on, the numbers of a department that has a code start with it: "NUR-1.2". */
  department_prefixes: boolean;
  /** Between the department code and the number. */
  prefix_separator: PrefixSeparator;
}

export const DEFAULT_SCHEME: NumberingScheme = { levels: 3, department_prefixes: false, prefix_separator: '-' };

/** A department code: what a prefix is made of. */
export const DEPARTMENT_CODE_PATTERN = /^[A-Z][A-Z0-9]{0,9}$/;
const NUMBER_PATTERN = /^(?:([A-Z][A-Z0-9]{0,9})([-.]))?([1-9]\d{0,3}(?:\.[1-9]\d{0,3})*)$/;

export interface ParsedNumber {
  prefix: string | null;
  separator: PrefixSeparator | null;
  parts: number[];
}

export function parseNumber(number: string): ParsedNumber | null {
  const match = NUMBER_PATTERN.exec(number);
  if (!match) return null;
  return {
    prefix: match[1] ?? null,
    separator: (match[2] as PrefixSeparator | undefined) ?? null,
    parts: match[3]!.split('.').map(Number),
  };
}

/** Compared part by part as numbers: 1 < 1.2 < 1.9 < 1.10 < 2; prefixes in text order before their numbers. */
export function compareNumbers(a: string, b: string): number {
  const left = a.split('.');
  const right = b.split('.');
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    if (left[i] === undefined) return -1;
    if (right[i] === undefined) return 1;
    const x = Number(left[i]);
    const y = Number(right[i]);
    if (Number.isFinite(x) && Number.isFinite(y)) {
      if (x !== y) return x - y;
    } else {
      const text = left[i]!.localeCompare(right[i]!, 'en', { numeric: true });
      if (text !== 0) return text;
    }
  }
  return 0;
}

/** The text that starts every number of a department under the scheme ("" when numbers carry no prefix). */
export function prefixFor(scheme: NumberingScheme, departmentCode: string | null | undefined): string {
  return scheme.department_prefixes && departmentCode ? `${departmentCode}${scheme.prefix_separator}` : '';
}

/** Why a number cannot be used under the scheme for a document of this department, or null when it can. */
export function numberProblem(
  number: string,
  scheme: NumberingScheme,
  departmentCode: string | null | undefined,
): string | null {
  const parsed = parseNumber(number);
  if (!parsed) return 'Use a number like 1, 1.2 or 1.2.10 (each part 1 to 9999, no leading zeros).';
  if (parsed.parts.length > scheme.levels) {
    return `Numbers have at most ${scheme.levels} ${scheme.levels === 1 ? 'level' : 'levels'} in this project.`;
  }
  const prefix = prefixFor(scheme, departmentCode);
  const actual = parsed.prefix ? `${parsed.prefix}${parsed.separator}` : '';
  if (actual !== prefix) {
    return prefix ? `Numbers in this department start with "${prefix}".` : 'Numbers in this project have no prefix.';
  }
  return null;
}

/** The key of a number's parent: "1.2" for "1.2.3", "NUR-" for "NUR-1", "" (the top) for "1". */
export function parentKey(number: string): string {
  const parsed = parseNumber(number);
  if (!parsed) return '';
  const prefix = parsed.prefix ? `${parsed.prefix}${parsed.separator}` : '';
  if (parsed.parts.length === 1) return prefix;
  return prefix + parsed.parts.slice(0, -1).join('.');
}

/** The number of the n-th child (1-based) under a parent key. */
export function childNumber(parent: string, n: number): string {
  return parent === '' || /[-.]$/.test(parent) ? `${parent}${n}` : `${parent}.${n}`;
}

/** Whether `number` is `root` or below it. */
export function inBranch(number: string, root: string): boolean {
  return number === root || number.startsWith(`${root}.`);
}

/** Levels of a number (1.2.3 has three). */
export function levelsOf(number: string): number {
  return parseNumber(number)?.parts.length ?? 0;
}

/** The next free child number under a parent key (after the highest used one, so gaps stay gaps). */
export function nextNumber(used: readonly string[], parent: string): string {
  let highest = 0;
  for (const number of used) {
    if (parentKey(number) !== parent || number === parent) continue;
    const last = parseNumber(number)?.parts.at(-1) ?? 0;
    if (last > highest) highest = last;
  }
  return childNumber(parent, highest + 1);
}

/**
 * The chapter a department's policies are numbered in, without department prefixes: the top-level number most of its
 * numbered policies sit under ("3" for 3, 3.1 and 3.2; the lowest on a tie), or null while it has none.
 */
export function departmentChapter(departmentNumbers: readonly string[]): string | null {
  const counts = new Map<number, number>();
  for (const number of departmentNumbers) {
    const parsed = parseNumber(number);
    if (!parsed || parsed.prefix) continue;
    counts.set(parsed.parts[0]!, (counts.get(parsed.parts[0]!) ?? 0) + 1);
  }
  let best: [number, number] | null = null;
  for (const [top, count] of counts) {
    if (!best || count > best[1] || (count === best[1] && top < best[0])) best = [top, count];
  }
  return best ? String(best[0]) : null;
}

/**
 * Where a new policy's number goes: after its department's prefix when the scheme gives it one (NUR-), else in the
 * department's chapter (3, for 3.3 after 3.1 and 3.2), else at the top level: without a department, for a department
 * with no numbered policy yet (it starts the chapter), or when numbers have a single level.
 */
export function newPolicyParent(
  scheme: NumberingScheme,
  department: { code: string | null; chapter: string | null } | null,
): string {
  if (!department) return '';
  const prefix = prefixFor(scheme, department.code);
  if (prefix) return prefix;
  return scheme.levels > 1 ? (department.chapter ?? '') : '';
}

/** The number a new policy of `department` takes: the next free one where `newPolicyParent` puts it. */
export function nextPolicyNumber(
  scheme: NumberingScheme,
  used: readonly string[],
  department: { code: string | null; numbers: readonly string[] } | null,
): string {
  const chapter = department && departmentChapter(department.numbers);
  return nextNumber(used, newPolicyParent(scheme, department && { code: department.code, chapter }));
}

export interface NumberedItem {
  id: number;
  number: string;
}

export interface NumberChange {
  id: number;
  from: string;
  to: string;
}

export interface MovePlan {
  changes: NumberChange[];
  /** Why the move cannot be made; changes is empty then. */
  problem: string | null;
}

/**
 * Moves the branch of one document (it and everything numbered below it) to position `index` (0-based) among the
 * children of `parent`, then numbers the children of the parents involved 1, 2, 3... in their new order; every
 * document below a renumbered one follows it. Returns only the numbers that change.
 */
export function planMove(
  items: readonly NumberedItem[],
  moveId: number,
  parent: string,
  index: number,
  levels: number = MAX_LEVELS,
): MovePlan {
  const fail = (problem: string): MovePlan => ({ changes: [], problem });
  const moving = items.find((item) => item.id === moveId);
  if (!moving) return fail('The document has no number yet; assign one first.');
  if (parent !== '' && !/[-.]$/.test(parent) && inBranch(parent, moving.number)) {
    return fail('A document cannot be moved below itself.');
  }
  if (parent !== '' && !/[-.]$/.test(parent) && !items.some((item) => item.number === parent)) {
    return fail(`There is no document numbered ${parent}.`);
  }
  const branchDepth = Math.max(
    ...items.filter((i) => inBranch(i.number, moving.number)).map((i) => levelsOf(i.number) - levelsOf(moving.number)),
  );
  const parentLevels = parent === '' || /[-.]$/.test(parent) ? 0 : levelsOf(parent);
  if (parentLevels + 1 + branchDepth > levels) return fail(`Numbers have at most ${levels} levels in this project.`);

  const childrenOf = (key: string) =>
    items
      .filter((item) => parentKey(item.number) === key && item.number !== key)
      .sort((a, b) => compareNumbers(a.number, b.number));

  const renamed = new Map<number, string>(); // id -> new number of the renumbered heads
  const oldParent = parentKey(moving.number);
  const target = childrenOf(parent).filter((item) => item.id !== moving.id);
  target.splice(Math.max(0, Math.min(index, target.length)), 0, moving);
  for (const [i, item] of target.entries()) renamed.set(item.id, childNumber(parent, i + 1));
  if (oldParent !== parent) {
    const left = childrenOf(oldParent).filter((item) => item.id !== moving.id);
    for (const [i, item] of left.entries()) renamed.set(item.id, childNumber(oldParent, i + 1));
  }

  // Every item follows the nearest renamed head above it (or is one).
  const heads = items.filter((item) => renamed.has(item.id));
  const changes: NumberChange[] = [];
  for (const item of items) {
    let to = item.number;
    let best: NumberedItem | undefined;
    for (const head of heads) {
      if (inBranch(item.number, head.number) && (!best || head.number.length > best.number.length)) best = head;
    }
    // A head inside the moving branch is never renamed separately: the moving root carries it.
    if (best) to = renamed.get(best.id)! + item.number.slice(best.number.length);
    if (to !== item.number) changes.push({ id: item.id, from: item.number, to });
  }
  return { changes: changes.sort((a, b) => compareNumbers(a.to, b.to)), problem: null };
}
