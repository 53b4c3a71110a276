/**
 * The word lists of the "no common passwords or words" rule (words.ts), built once from the zxcvbn-ts dictionaries
 * (language-common and language-en) when `loadPasswordDictionaries` runs: about 164,000 keys with flags saying how
 * each word counts, and length-bucketed lists for the near-miss check. Which list and rank make a word count at which
 * length was measured on random passwords (docs/decisions/018-fair-password-rules.md): words a guesser tries first
 * count from 4 letters, any listed word from 5; substituted (l33t) and reversed forms only for the top lists.
 */

/** Counts as a common word at exactly 4 letters, written as it is ('Love', 'gold', 'Matt'). */
export const WORD_4 = 1;
/** Counts as a common word at 5 letters or more, written as it is: any word of the lists. */
export const WORD_5 = 2;
/** Counts at exactly 4 letters with digits or symbols for letters ('L0ve', 'P@ss'): the top common passwords. */
export const L33T_4 = 4;
/** Counts at 5 letters or more with digits or symbols for letters ('P@ssw0rd'): top passwords and words. */
export const L33T_5 = 8;
/** The key is a top common password written backwards ('drowssap'). */
export const REVERSED = 16;
/** A short common word a passphrase is made of ('my', 'dog', 'rex'). */
export const PASSPHRASE_WORD = 32;
/** A top common password with digits or symbols ('1q2w3e4r', 'trustno1'), matched as it is written. */
export const LITERAL_PASSWORD = 64;

/** Common passwords with digits or symbols count from this length ('abc123' is left to the sequence rules). */
export const LITERAL_PASSWORD_MIN_LENGTH = 6;
/** ... and up to this rank. */
const LITERAL_PASSWORD_RANK = 10_000;

/** Ranks (1 = most common) up to which a list's words get each flag; `Infinity` for the whole list, 0 for none. */
interface ListRule {
  /** WORD_4 for its words of 4 letters (every word of 5 or more letters gets WORD_5). */
  word4: number;
  /** L33T_5 for its words of 5 letters or more. */
  l33t: number;
  /** REVERSED for its words of 5 letters or more. */
  reversed: number;
  /** PASSPHRASE_WORD for its words of 3 letters or more. */
  passphrase: number;
  /** Near misses of word-like parts of 6 or 7 characters. */
  nearMissShort: number;
  /** Near misses of longer word-like parts. */
  nearMiss: number;
}

const NONE = 0;
const ALL = Number.POSITIVE_INFINITY;

/** Per zxcvbn-ts list. The firstnames list is alphabetical, not ranked: all or nothing. */
const LIST_RULES: Readonly<Record<string, ListRule>> = {
  'passwords-common': {
    word4: 10_000,
    l33t: 10_000,
    reversed: 10_000,
    passphrase: 10_000,
    nearMissShort: 10_000,
    nearMiss: ALL,
  },
  'commonWords-en': {
    word4: 10_000,
    l33t: 10_000,
    reversed: NONE,
    passphrase: 10_000,
    nearMissShort: 10_000,
    nearMiss: 20_000,
  },
  'wikipedia-en': { word4: NONE, l33t: NONE, reversed: NONE, passphrase: NONE, nearMissShort: NONE, nearMiss: ALL },
  'firstnames-en': { word4: ALL, l33t: NONE, reversed: NONE, passphrase: ALL, nearMissShort: NONE, nearMiss: ALL },
  'lastnames-en': { word4: 1_000, l33t: NONE, reversed: NONE, passphrase: NONE, nearMissShort: NONE, nearMiss: 10_000 },
  'diceware-common': { word4: NONE, l33t: NONE, reversed: NONE, passphrase: NONE, nearMissShort: NONE, nearMiss: NONE },
};
/** The small lists (seasons, months, days, numbers, colours, planets, zodiac...): every word in every way. */
const SMALL_LIST_RULE: ListRule = {
  word4: ALL,
  l33t: ALL,
  reversed: NONE,
  passphrase: ALL,
  nearMissShort: ALL,
  nearMiss: ALL,
};
/** Only the most common passwords count at 4 letters in l33t ('L0ve'); more give too many random false alarms. */
const L33T_4_RANK = 1_000;

/** Two-letter words count in a passphrase only among the most common words ('my', 'is', 'we', not 'cd', 'hm'). */
const TWO_LETTER_PASSPHRASE_RANK = 500;

/** Shortest word-like part (in characters) the near-miss check looks at; it may be one edit from a word. */
export const NEAR_MISS_MIN_LENGTH = 6;
/** Word-like parts of this many characters or more may be two edits from a word. */
export const NEAR_MISS_TWO_EDITS = 8;

export interface NearMissBucket {
  words: string[];
  masks: Int32Array;
}

export interface WordIndex {
  /** Lower-case word (or reversed word) to its flags. */
  flags: Map<string, number>;
  /** Longest key of `flags`, in characters. */
  maxLength: number;
  /** The first three letters of every key of 4 or more characters, to the length of the longest such key. */
  prefixMaxLength: Map<string, number>;
  /** Near-miss candidates by length: `nearMiss[n]` holds the words of n characters and their letter masks. */
  nearMiss: NearMissBucket[];
  /** The same for word-like parts of 6 or 7 characters: fewer lists. */
  nearMissShort: NearMissBucket[];
}

/** Bit i for letter 'a' + i; other characters set bit 26. */
export function letterMask(word: string): number {
  let mask = 0;
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i) - 97;
    mask |= code >= 0 && code < 26 ? 1 << code : 1 << 26;
  }
  return mask;
}

function add(flags: Map<string, number>, key: string, flag: number): void {
  if (flag) flags.set(key, (flags.get(key) ?? 0) | flag);
}

function buckets(words: Iterable<string>): NearMissBucket[] {
  const byLength: string[][] = [];
  for (const word of words) {
    const bucket = byLength[word.length] ?? [];
    bucket.push(word);
    byLength[word.length] = bucket;
  }
  return Array.from({ length: byLength.length }, (_, n) => {
    const bucket = byLength[n] ?? [];
    return { words: bucket, masks: Int32Array.from(bucket, letterMask) };
  });
}

/** Builds the index from zxcvbn-ts dictionaries (`{ ...common.dictionary, ...en.dictionary }`). */
export function buildWordIndex(dictionaries: Readonly<Record<string, readonly (string | number)[]>>): WordIndex {
  const flags = new Map<string, number>();
  const nearMissSet = new Set<string>();
  const nearMissShortSet = new Set<string>();
  for (const [name, entries] of Object.entries(dictionaries)) {
    const rule = LIST_RULES[name] ?? SMALL_LIST_RULE;
    entries.forEach((entry, index) => {
      const word = String(entry).toLowerCase();
      const rank = index + 1;
      // Entries with digits or symbols are matched as they are written, the long ones of the top of the list only.
      if (!/^\p{L}+$/u.test(word)) {
        const literal = name === 'passwords-common' && rank <= LITERAL_PASSWORD_RANK;
        if (literal && word.length >= LITERAL_PASSWORD_MIN_LENGTH) add(flags, word, LITERAL_PASSWORD);
        return;
      }
      const length = word.length;
      let flag = 0;
      if (length >= 5) flag |= WORD_5;
      else if (length === 4 && rank <= rule.word4) flag |= WORD_4;
      if (length >= 5 && rank <= rule.l33t) flag |= L33T_5;
      else if (length === 4 && name === 'passwords-common' && rank <= L33T_4_RANK) flag |= L33T_4;
      if (length >= 3 ? rank <= rule.passphrase : name === 'commonWords-en' && rank <= TWO_LETTER_PASSPHRASE_RANK) {
        flag |= PASSPHRASE_WORD;
      }
      add(flags, word, flag);
      if (length >= 5 && rank <= rule.reversed) add(flags, [...word].reverse().join(''), REVERSED);
      if (!/^[a-z]+$/.test(word)) return;
      // Parts of 8+ characters are compared with words of 6+ letters, parts of 6 or 7 with words of 5 to 8.
      if (length >= NEAR_MISS_TWO_EDITS - 2 && rank <= rule.nearMiss) nearMissSet.add(word);
      if (length >= NEAR_MISS_MIN_LENGTH - 1 && length <= NEAR_MISS_TWO_EDITS && rank <= rule.nearMissShort) {
        nearMissShortSet.add(word);
      }
    });
  }
  let maxLength = 0;
  const prefixMaxLength = new Map<string, number>();
  for (const key of flags.keys()) {
    maxLength = Math.max(maxLength, key.length);
    if (key.length < 4) continue;
    const prefix = key.slice(0, 3);
    prefixMaxLength.set(prefix, Math.max(prefixMaxLength.get(prefix) ?? 0, key.length));
  }
  return {
    flags,
    maxLength,
    prefixMaxLength,
    nearMiss: buckets(nearMissSet),
    nearMissShort: buckets(nearMissShortSet),
  };
}
