/**
 * A word diff for comparing two versions of the terms: Myers' O((N+M)D) algorithm in linear space (the "middle
 * snake" divide and conquer), over words, punctuation and paragraph breaks as tokens of their own. A revision of a 5,000-word
 * text that changes a few sentences costs well under a millisecond; a budget bounds the pathological case (two
 * unrelated texts): past it, what is left unresolved is shown as removed and added whole.
 */

export type DiffKind = 'same' | 'removed' | 'added';

export interface DiffPart {
  kind: DiffKind;
  /** Words joined by single spaces; paragraph breaks as '\n'. */
  text: string;
}

export interface WordDiff {
  parts: DiffPart[];
  /** Words (punctuation and paragraph breaks not counted). */
  removed: number;
  added: number;
}

/** The token standing for a paragraph break. */
export const PARAGRAPH_BREAK = '\n';

/** Steps of the inner loop before the rest is given up on: some tens of milliseconds of work. */
const DEFAULT_BUDGET = 20_000_000;

/** Marks a token written right after the one before it, with no space between ("monitored" then "."). */
export const GLUED = '\u0001';

/** A word (letters and digits, with inner apostrophes or hyphens) or a run of anything else. */
const PIECE = /[\p{L}\p{N}]+(?:['\u2019-][\p{L}\p{N}]+)*|[^\p{L}\p{N}]+/gu;
const HAS_WORD = /[\p{L}\p{N}]/u;

/**
 * The tokens of a text: the words of each paragraph (split on line breaks), with punctuation apart so "monitored."
 * and "monitored and logged." share "monitored", and a break token between paragraphs.
 */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const paragraph of text.split(/\n+/)) {
    const words = paragraph.split(/\s+/).filter(Boolean);
    if (words.length === 0) continue;
    if (tokens.length > 0) tokens.push(PARAGRAPH_BREAK);
    for (const word of words) {
      const pieces = word.match(PIECE) ?? [word];
      pieces.forEach((piece, index) => {
        tokens.push(index === 0 ? piece : `${GLUED}${piece}`);
      });
    }
  }
  return tokens;
}

type Op = [DiffKind, number];

interface Budget {
  left: number;
}

export interface DiffOptions {
  /** Steps of Myers' inner loop before the rest is shown as removed and added whole. */
  budget?: number;
  /** Fold short unchanged runs between changes into them (on by default). */
  semanticCleanup?: boolean;
}

/** The diff of two plain texts, word by word. */
export function diffWords(before: string, after: string, options: DiffOptions = {}): WordDiff {
  const { budget = DEFAULT_BUDGET, semanticCleanup = true } = options;
  const a = tokenize(before);
  const b = tokenize(after);
  // Tokens become numbers so the inner loop compares integers.
  const ids = new Map<string, number>();
  const encode = (tokens: string[]) => Int32Array.from(tokens, (token) => getId(ids, token));
  const ops: Op[] = [];
  diffRange(encode(a), 0, a.length, encode(b), 0, b.length, ops, { left: budget });
  const words = [...ids.keys()];
  return render(group(ops, semanticCleanup ? (ids.get(PARAGRAPH_BREAK) ?? -1) : null), words);
}

function getId(ids: Map<string, number>, token: string): number {
  let id = ids.get(token);
  if (id === undefined) {
    id = ids.size;
    ids.set(token, id);
  }
  return id;
}

function diffRange(
  a: Int32Array,
  aLo: number,
  aHi: number,
  b: Int32Array,
  bLo: number,
  bHi: number,
  out: Op[],
  budget: Budget,
): void {
  while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) {
    out.push(['same', a[aLo]!]);
    aLo++;
    bLo++;
  }
  let suffix = 0;
  while (aHi > aLo && bHi > bLo && a[aHi - 1] === b[bHi - 1]) {
    aHi--;
    bHi--;
    suffix++;
  }

  if (aLo === aHi || bLo === bHi) {
    for (let i = aLo; i < aHi; i++) out.push(['removed', a[i]!]);
    for (let j = bLo; j < bHi; j++) out.push(['added', b[j]!]);
  } else {
    const snake = middleSnake(a, aLo, aHi, b, bLo, bHi, budget);
    if (snake) {
      const [x, y, u, v] = snake;
      diffRange(a, aLo, x, b, bLo, y, out, budget);
      for (let i = x; i < u; i++) out.push(['same', a[i]!]);
      diffRange(a, u, aHi, b, v, bHi, out, budget);
    } else {
      for (let i = aLo; i < aHi; i++) out.push(['removed', a[i]!]);
      for (let j = bLo; j < bHi; j++) out.push(['added', b[j]!]);
    }
  }

  for (let i = aHi; i < aHi + suffix; i++) out.push(['same', a[i]!]);
}

/**
 * The middle snake of A[aLo, aHi) against B[bLo, bHi): absolute [x, y, u, v] such that (x, y) to (u, v) is a run of
 * matches on an optimal path that splits its edits in two halves. Both ranges are non-empty and differ at both ends
 * (the caller trims), so the edit distance is at least 2 and each half is strictly smaller. Null past the budget.
 */
function middleSnake(
  a: Int32Array,
  aLo: number,
  aHi: number,
  b: Int32Array,
  bLo: number,
  bHi: number,
  budget: Budget,
): [number, number, number, number] | null {
  const n = aHi - aLo;
  const m = bHi - bLo;
  const delta = n - m;
  const odd = (delta & 1) === 1;
  const max = Math.ceil((n + m) / 2);
  const offset = max + 1;
  // vf[k]: furthest x on diagonal k (x - y) going forward; vb[k]: furthest x' on diagonal k of the reversed texts.
  const vf = new Int32Array(2 * offset + 1);
  const vb = new Int32Array(2 * offset + 1);

  for (let d = 0; d <= max; d++) {
    budget.left -= 2 * d + 1;
    if (budget.left < 0) return null;

    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && vf[offset + k - 1]! < vf[offset + k + 1]!)
          ? vf[offset + k + 1]!
          : vf[offset + k - 1]! + 1;
      let y = x - k;
      const x0 = x;
      const y0 = y;
      while (x < n && y < m && a[aLo + x] === b[bLo + y]) {
        x++;
        y++;
      }
      vf[offset + k] = x;
      const kb = delta - k;
      if (odd && kb >= -(d - 1) && kb <= d - 1 && x + vb[offset + kb]! >= n) {
        return [aLo + x0, bLo + y0, aLo + x, bLo + y];
      }
    }

    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && vb[offset + k - 1]! < vb[offset + k + 1]!)
          ? vb[offset + k + 1]!
          : vb[offset + k - 1]! + 1;
      let y = x - k;
      const x0 = x;
      const y0 = y;
      while (x < n && y < m && a[aHi - 1 - x] === b[bHi - 1 - y]) {
        x++;
        y++;
      }
      vb[offset + k] = x;
      const kf = delta - k;
      if (!odd && kf >= -d && kf <= d && x + vf[offset + kf]! >= n) {
        return [aHi - x, bHi - y, aHi - x0, bHi - y0];
      }
    }
  }
  return null;
}

interface Segment {
  /** A change: the words taken out and the words put in their place... */
  removed: number[];
  added: number[];
  /** ...then the unchanged words after it. */
  same: number[];
}

/**
 * Groups the edit script into changes and (unless `paragraphId` is null) folds a run of unchanged words shorter
 * than the changes on both sides of it into them, much as diff-match-patch's semantic cleanup does: a lone "the"
 * kept between two rewritten clauses reads as noise. Paragraph breaks are never folded, so paragraphs stay aligned.
 */
function group(ops: Op[], paragraphId: number | null): Segment[] {
  const segments: Segment[] = [{ removed: [], added: [], same: [] }];
  for (const [kind, token] of ops) {
    const last = segments[segments.length - 1]!;
    if (kind === 'same') last.same.push(token);
    else if (last.same.length > 0) segments.push({ removed: [], added: [], same: [], [kind]: [token] });
    else last[kind].push(token);
  }

  const size = (segment: Segment) => Math.max(segment.removed.length, segment.added.length);
  const merged: Segment[] = [];
  for (const segment of segments) {
    const previous = merged[merged.length - 1];
    const bridge = previous?.same ?? [];
    if (
      previous &&
      paragraphId !== null &&
      bridge.length < size(previous) &&
      bridge.length < size(segment) &&
      !bridge.includes(paragraphId)
    ) {
      previous.removed.push(...bridge, ...segment.removed);
      previous.added.push(...bridge, ...segment.added);
      previous.same = segment.same;
    } else {
      merged.push(segment);
    }
  }
  return merged;
}

/** The parts to show, in reading order: each change's removed words, then its added words, then what follows. */
function render(segments: Segment[], words: string[]): WordDiff {
  const parts: DiffPart[] = [];
  // The last token each side reads, to know whether a space goes before the next one.
  let lastBefore: string | null = null;
  let lastAfter: string | null = null;
  let lastShown: string | null = null;
  let removed = 0;
  let added = 0;

  const append = (kind: DiffKind, text: string) => {
    const last = parts[parts.length - 1];
    if (last && last.kind === kind) last.text += text;
    else parts.push({ kind, text });
  };
  const wordBefore = (last: string | null) => last !== null && last !== PARAGRAPH_BREAK;
  // A space goes before a word that follows a word, as shown or on its side; it belongs to the word's part when
  // that part goes on, else it is neutral (read on both sides).
  // Punctuation glued to the word before it takes no space.
  const show = (kind: DiffKind, id: number) => {
    const token = words[id]!;
    const glued = token.startsWith(GLUED);
    const inBefore = kind !== 'added';
    const inAfter = kind !== 'removed';
    const follows = wordBefore(lastShown) || (inBefore && wordBefore(lastBefore)) || (inAfter && wordBefore(lastAfter));
    if (token !== PARAGRAPH_BREAK && !glued && follows) {
      append(parts[parts.length - 1]?.kind === kind ? kind : 'same', ' ');
    }
    const shown = glued ? token.slice(GLUED.length) : token;
    append(kind, shown);
    lastShown = token;
    if (inBefore) lastBefore = token;
    if (inAfter) lastAfter = token;
    if (!HAS_WORD.test(shown)) return;
    if (kind === 'removed') removed++;
    if (kind === 'added') added++;
  };

  for (const segment of segments) {
    for (const id of segment.removed) show('removed', id);
    for (const id of segment.added) show('added', id);
    for (const id of segment.same) show('same', id);
  }
  return { parts, removed, added };
}
