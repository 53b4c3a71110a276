/**
 * The "no common passwords or words" rule: finds what a guesser tries in a password, fast enough to run on the
 * server's event loop for any password the schemas accept (1,024 characters). In the order they are looked for:
 *
 * - A common word or password written as people write words (word, Word or WORD): from 4 letters for the words a
 *   guesser tries first (top passwords and words, first names), from 5 letters for any word of the lists
 *   ('Sunshine', 'Jennifer', 'gold', 'Summer' in 'Summer2024!').
 * - The same with digits or symbols for letters (l33t: 'P@ssw0rd', 'L0ve', 'J3$$1c@'), for the top passwords and
 *   words, when at least 3 letters and half of the characters are letters (from 6 characters, 2 letters).
 * - A top common password of 5 letters or more written backwards ('Drowssap').
 * - A word of the user's own (username, email name, names), in any case, l33t or backwards.
 * - A top common password with digits in it, as it is written ('1q2w3e4r').
 * - A passphrase of short common words with only a few digits and symbols around it ('MyDogRex2019!!').
 * - A near miss: a word-like part of 6 or more characters within one edit (two from 8 characters; swapping two
 *   neighbours is one edit) of a common word or password, l33t included ('Tr0ub4dor' is two edits from
 *   'troubadours', 'Passwrod' one from 'password').
 *
 * Letters in random order (`rEUS`, `FiRM`) and fragments of a random string are not words: only the case patterns a
 * person writes count, and which lists and ranks count at which length was measured on random passwords (decision
 * 018; password/corpus.test.ts keeps random passwords accepted and guessable ones refused).
 */
import { lettersFor } from './l33t.js';
import {
  L33T_4,
  L33T_5,
  LITERAL_PASSWORD,
  LITERAL_PASSWORD_MIN_LENGTH,
  letterMask,
  NEAR_MISS_MIN_LENGTH,
  NEAR_MISS_TWO_EDITS,
  PASSPHRASE_WORD,
  REVERSED,
  WORD_4,
  WORD_5,
  type WordIndex,
} from './word-index.js';

export type CommonWordKind = 'word' | 'l33t' | 'reversed' | 'userInput' | 'nearMiss' | 'passphrase';

export interface CommonWordMatch {
  kind: CommonWordKind;
  /** The part of the password (after NFKC normalisation) that gave it away. */
  token: string;
  /** The word of the lists it stands for. */
  word: string;
}

/** Shortest word (in characters) that counts. */
export const COMMON_WORD_MIN_LENGTH = 4;
/** A window may hold at most this many characters that stand for two letters ('1' is i or l). */
const MAX_AMBIGUOUS = 2;
/** From this many characters a substituted window needs only 2 real letters. */
const L33T_LONG_WINDOW = 6;
/** Near-miss checks per password: a password with more word-like parts than this is long and not guessable. */
const MAX_NEAR_MISS_TOKENS = 16;
/** Passphrase decorations: at most this many digits in a row (a year), symbols in a row, and in all. */
const PASSPHRASE_MAX_DIGITS = 4;
const PASSPHRASE_MAX_SYMBOLS = 3;
const PASSPHRASE_MAX_EXTRAS = 8;

interface Char {
  text: string;
  /** Letters it may stand for ('' for neither a letter nor a l33t character). */
  letters: string;
  letter: boolean;
  upper: boolean;
  lower: boolean;
}

function describe(text: string): Char {
  const letters = lettersFor(text);
  const lower = text !== text.toUpperCase();
  const upper = text !== text.toLowerCase() && !lower;
  return { text, letters, letter: /^\p{L}$/u.test(text), upper, lower };
}

/** Letters written as people write words: all lower case, all upper case, or only the first one upper case. */
class CaseShape {
  private uppers = 0;
  private lowers = 0;
  private firstUpper: boolean | undefined;

  add(char: Char): void {
    if (!char.letter) return;
    if (this.firstUpper === undefined) this.firstUpper = char.upper;
    if (char.upper) this.uppers++;
    else this.lowers++;
  }

  get natural(): boolean {
    return this.uppers === 0 || this.lowers === 0 || (this.uppers === 1 && this.firstUpper === true);
  }
}

interface OwnWords {
  /** The user's own words (4 characters or more), forwards and backwards, in lower case. */
  words: Set<string>;
  /** Their first three characters, to the length of the longest of them. */
  prefixMaxLength: Map<string, number>;
}

function userWords(userInputs: readonly string[]): OwnWords {
  const words = new Set<string>();
  const prefixMaxLength = new Map<string, number>();
  for (const input of userInputs) {
    const text = input.normalize('NFKC').toLowerCase();
    for (const part of new Set([text, ...text.split(/[^\p{L}\p{N}]+/u), ...text.split(/\P{L}+/u)])) {
      if (Array.from(part).length < COMMON_WORD_MIN_LENGTH) continue;
      for (const word of [part, Array.from(part).reverse().join('')]) {
        words.add(word);
        const prefix = word.slice(0, 3);
        prefixMaxLength.set(prefix, Math.max(prefixMaxLength.get(prefix) ?? 0, word.length));
      }
    }
  }
  return { words, prefixMaxLength };
}

function tokenOf(chars: readonly Char[], start: number, end: number): string {
  let token = '';
  for (let i = start; i <= end; i++) token += (chars[i] as Char).text;
  return token;
}

/** What a window that reads `variant` is, if anything: one of the user's words, a word, a reversed word or l33t. */
function windowKind(
  variant: string,
  index: WordIndex,
  own: OwnWords,
  natural: boolean,
  substituted: boolean,
  length: number,
): CommonWordKind | undefined {
  if (own.words.has(variant)) return 'userInput';
  if (!natural) return undefined;
  const flags = index.flags.get(variant) ?? 0;
  if (substituted) return flags & (length === 4 ? L33T_4 : L33T_5) ? 'l33t' : undefined;
  if (flags & (length === 4 ? WORD_4 : WORD_5)) return 'word';
  return flags & REVERSED ? 'reversed' : undefined;
}

/**
 * Exact, l33t, reversed and user-input matches of every window of the password. A window stops at a character that
 * is neither a letter nor a l33t character, at the third character that stands for two letters, and beyond the
 * longest word that begins with its first three letters (`prefixMaxLength`), so each start costs a few look-ups.
 */
function findInWindows(chars: readonly Char[], index: WordIndex, own: OwnWords): CommonWordMatch | undefined {
  let ownMaxLength = 0;
  for (const length of own.prefixMaxLength.values()) ownMaxLength = Math.max(ownMaxLength, length);
  for (let start = 0; start < chars.length; start++) {
    // The longest match from this start ('Summer', not 'Summe').
    let found: CommonWordMatch | undefined;
    let variants = [''];
    let letters = 0;
    let substitutions = 0;
    let ambiguous = 0;
    let uppers = 0;
    let lowers = 0;
    let firstUpper = false;
    let limit = Math.max(index.maxLength, ownMaxLength);
    for (let end = start; end < chars.length && end - start < limit; end++) {
      const char = chars[end] as Char;
      if (!char.letters) break;
      if (char.letter) {
        if (letters === 0) firstUpper = char.upper;
        letters++;
        if (char.upper) uppers++;
        else lowers++;
      } else substitutions++;
      if (char.letters.length === 1) {
        for (let v = 0; v < variants.length; v++) variants[v] += char.letters;
      } else {
        if (++ambiguous > MAX_AMBIGUOUS) break;
        variants = variants.flatMap((variant) => Array.from(char.letters, (letter) => variant + letter));
      }
      const length = end - start + 1;
      if (length === COMMON_WORD_MIN_LENGTH - 1) {
        let longest = 0;
        for (const variant of variants) {
          longest = Math.max(longest, index.prefixMaxLength.get(variant) ?? 0, own.prefixMaxLength.get(variant) ?? 0);
        }
        limit = Math.min(limit, longest);
      }
      if (length < COMMON_WORD_MIN_LENGTH) continue;
      // Substituted words keep at least 3 letters and half of their characters ('P@ssw0rd', 'L0ve'), or from 6
      // characters at least 2 letters ('J3$$1c@'): shorter heavily substituted windows match random strings.
      const l33tOk =
        substitutions === 0 ||
        (letters >= 3 && substitutions <= letters) ||
        (length >= L33T_LONG_WINDOW && letters >= 2);
      if (!l33tOk) continue;
      const natural = uppers === 0 || lowers === 0 || (uppers === 1 && firstUpper);
      for (const variant of variants) {
        const kind = windowKind(variant, index, own, natural, substitutions > 0, length);
        if (!kind) continue;
        const word = kind === 'reversed' ? Array.from(variant).reverse().join('') : variant;
        found = { kind, token: tokenOf(chars, start, end), word };
        break;
      }
    }
    if (found) return found;
  }
  return undefined;
}

/**
 * Word-like parts: runs of letters and l33t characters, split where a capital follows a small letter ('MyDog' is
 * 'My', 'Dog'), without the digits and symbols at their ends ('Password1!' is 'Password').
 */
function wordLikeParts(chars: readonly Char[]): Char[][] {
  const parts: Char[][] = [];
  let current: Char[] = [];
  let previousLetter: Char | undefined;
  const flush = () => {
    let from = 0;
    let to = current.length;
    while (from < to && !current[from]?.letter) from++;
    while (to > from && !current[to - 1]?.letter) to--;
    if (to > from) parts.push(current.slice(from, to));
    current = [];
    previousLetter = undefined;
  };
  for (const char of chars) {
    if (!char.letters) {
      flush();
      continue;
    }
    if (char.letter && char.upper && previousLetter?.lower) flush();
    current.push(char);
    if (char.letter) previousLetter = char;
  }
  flush();
  return parts;
}

function popcount(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Reused rows of the edit-distance table (the longest word is far shorter). */
const ROW_LENGTH = 64;
const rows = [new Int32Array(ROW_LENGTH), new Int32Array(ROW_LENGTH), new Int32Array(ROW_LENGTH)] as const;

/**
 * Edit distance (optimal string alignment: insertions, deletions, substitutions and swaps of two neighbours cost 1
 * each) between a word-like part, given as the letter mask of each character (a l33t character matches each of its
 * letters), and a word, or `limit + 1` when it is more than `limit`. Only cells within `limit` of the diagonal count.
 */
function editDistance(part: Int32Array, word: string, limit: number): number {
  const n = part.length;
  const m = word.length;
  if (Math.abs(n - m) > limit || m + 1 > ROW_LENGTH) return limit + 1;
  const over = limit + 1;
  let [beforePrevious, previous, current] = rows;
  for (let j = 0; j <= m; j++) previous[j] = j <= limit ? j : over;
  for (let i = 1; i <= n; i++) {
    const from = Math.max(1, i - limit);
    const to = Math.min(m, i + limit);
    current[0] = i <= limit ? i : over;
    if (from > 1) current[from - 1] = over;
    let best = over;
    const letters = part[i - 1] as number;
    const before = i > 1 ? (part[i - 2] as number) : 0;
    for (let j = from; j <= to; j++) {
      const bit = 1 << (word.charCodeAt(j - 1) - 97);
      let value = (previous[j - 1] as number) + (letters & bit ? 0 : 1);
      const up = (previous[j] as number) + 1;
      if (up < value) value = up;
      const left = (current[j - 1] as number) + 1;
      if (left < value) value = left;
      if (j > 1 && before & bit && letters & (1 << (word.charCodeAt(j - 2) - 97))) {
        const swap = (beforePrevious[j - 2] as number) + 1;
        if (swap < value) value = swap;
      }
      if (value > over) value = over;
      current[j] = value;
      if (value < best) best = value;
    }
    if (to < m) current[to + 1] = over;
    if (best > limit) return over;
    [beforePrevious, previous, current] = [previous, current, beforePrevious];
  }
  return Math.min(previous[m] as number, over);
}

/** A word-like part of 6+ characters within one edit (two from 8 characters) of a near-miss word. */
function findNearMiss(chars: readonly Char[], index: WordIndex): CommonWordMatch | undefined {
  const seen = new Set<string>();
  for (const part of wordLikeParts(chars)) {
    if (part.length < NEAR_MISS_MIN_LENGTH) continue;
    const letters = part.filter((char) => char.letter);
    // At least 4 letters, and two thirds of the part: near misses of l33t-heavy parts match random strings.
    if (letters.length < 4 || letters.length * 3 < part.length * 2) continue;
    const shape = new CaseShape();
    for (const char of part) shape.add(char);
    if (!shape.natural) continue;
    const token = part.map((char) => char.text).join('');
    if (seen.has(token.toLowerCase())) continue;
    seen.add(token.toLowerCase());
    if (seen.size > MAX_NEAR_MISS_TOKENS) break;
    const limit = part.length >= NEAR_MISS_TWO_EDITS ? 2 : 1;
    const masks = Int32Array.from(part, (char) => letterMask(char.letters));
    const possible = masks.reduce((all, mask) => all | mask, 0);
    const literal = letterMask(letters.map((char) => char.letters).join(''));
    for (let length = part.length - limit; length <= part.length + limit; length++) {
      const bucket = (part.length >= NEAR_MISS_TWO_EDITS ? index.nearMiss : index.nearMissShort)[length];
      if (!bucket) continue;
      const { words } = bucket;
      for (let k = 0; k < words.length; k++) {
        const mask = bucket.masks[k] as number;
        // Each edit brings in at most one letter the other side lacks.
        if (popcount(mask & ~possible) > limit || popcount(literal & ~mask) > limit) continue;
        const word = words[k] as string;
        if (editDistance(masks, word, limit) <= limit) return { kind: 'nearMiss', token, word };
      }
    }
  }
  return undefined;
}

function isPassphraseWord(word: string, index: WordIndex): boolean {
  return word === 'a' || word === 'i' || ((index.flags.get(word) ?? 0) & PASSPHRASE_WORD) !== 0;
}

/** The passphrase words `text` (lower case) splits into, or undefined when it does not split into them. */
function splitIntoWords(text: string, index: WordIndex): string[] | undefined {
  // starts[end]: where the last word of a split of text.slice(0, end) begins (-1: none found).
  const starts = new Int32Array(text.length + 1).fill(-1);
  starts[0] = 0;
  for (let start = 0; start < text.length; start++) {
    if (starts[start] === -1) continue;
    let limit = Math.min(text.length - start, index.maxLength);
    for (let length = 1; length <= limit; length++) {
      const word = text.slice(start, start + length);
      if (length === COMMON_WORD_MIN_LENGTH - 1) limit = Math.min(limit, index.prefixMaxLength.get(word) ?? length);
      if (starts[start + length] === -1 && isPassphraseWord(word, index)) starts[start + length] = start;
    }
  }
  if (starts[text.length] === -1) return undefined;
  const words: string[] = [];
  for (let end = text.length; end > 0; end = starts[end] as number) words.unshift(text.slice(starts[end], end));
  return words;
}

/** Digits and symbols before or after a passphrase: runs of at most 4 digits (a year) and at most 3 symbols. */
function isDecoration(chars: readonly Char[]): boolean {
  let digits = 0;
  let symbols = 0;
  for (const char of chars) {
    const digit = /^\p{Nd}$/u.test(char.text);
    digits = digit ? digits + 1 : 0;
    symbols = digit ? 0 : symbols + 1;
    if (digits > PASSPHRASE_MAX_DIGITS || symbols > PASSPHRASE_MAX_SYMBOLS) return false;
  }
  return true;
}

/**
 * A passphrase of common words (of any length: 'my', 'dog') with at most 8 digits and symbols before and after it
 * (a year, '!!'): the letters split into two or more passphrase words, written together in camel case ('MyDogRex')
 * or in one case, or with one separator between them ('my-dog-rex'). Only the top of the lists counts, two-letter
 * words among the 500 most common words only, so random strings do not read as passphrases.
 */
function findPassphrase(chars: readonly Char[], index: WordIndex): CommonWordMatch | undefined {
  const first = chars.findIndex((char) => char.letter);
  let last = chars.length - 1;
  while (last >= 0 && !(chars[last] as Char).letter) last--;
  if (first === -1) return undefined;
  const before = chars.slice(0, first);
  const after = chars.slice(last + 1);
  if (before.length + after.length > PASSPHRASE_MAX_EXTRAS || !isDecoration(before) || !isDecoration(after)) {
    return undefined;
  }
  // Between the first and the last letter: letters, and single separators that are all the same character.
  const runs: string[] = [];
  let separator: string | undefined;
  let run = '';
  for (let i = first; i <= last; i++) {
    const char = chars[i] as Char;
    if (char.letter) {
      run += char.text;
      continue;
    }
    if (!run || (separator !== undefined && separator !== char.text)) return undefined;
    separator = char.text;
    runs.push(run);
    run = '';
  }
  runs.push(run);
  const words: string[] = [];
  for (const letters of runs) {
    // Camel case: 'MyDogRex' is 'My', 'Dog', 'Rex'; each must be written as a word and split into words.
    for (const part of letters.split(/(?<=\p{Ll})(?=\p{Lu})/u)) {
      const shape = new CaseShape();
      for (const char of part) shape.add(describe(char));
      const split = shape.natural ? splitIntoWords(part.toLowerCase(), index) : undefined;
      if (!split) return undefined;
      words.push(...split);
    }
  }
  if (words.length < 2) return undefined;
  return { kind: 'passphrase', token: chars.map((char) => char.text).join(''), word: words.join(' ') };
}

/** A top common password with digits or symbols, as it is written ('1q2w3e4r', 'trustno1'), in any case. */
function findLiteralPassword(chars: readonly Char[], index: WordIndex): CommonWordMatch | undefined {
  for (let start = 0; start < chars.length; start++) {
    let found: CommonWordMatch | undefined;
    let key = '';
    let limit = index.maxLength;
    for (let end = start; end < chars.length && end - start < limit; end++) {
      key += (chars[end] as Char).text.toLowerCase();
      const length = end - start + 1;
      if (length === 3) limit = Math.min(limit, index.prefixMaxLength.get(key) ?? 0);
      if (length >= LITERAL_PASSWORD_MIN_LENGTH && (index.flags.get(key) ?? 0) & LITERAL_PASSWORD) {
        found = { kind: 'word', token: tokenOf(chars, start, end), word: key };
      }
    }
    if (found) return found;
  }
  return undefined;
}

/** The first common word, password or pattern of words found in `password`, or undefined. */
export function findCommonWord(
  password: string,
  index: WordIndex,
  userInputs: readonly string[] = [],
): CommonWordMatch | undefined {
  const chars = Array.from(password.normalize('NFKC'), describe);
  return (
    findInWindows(chars, index, userWords(userInputs)) ??
    findLiteralPassword(chars, index) ??
    findPassphrase(chars, index) ??
    findNearMiss(chars, index)
  );
}
