/**
 * Lazy zxcvbn-ts set-up. The core and the language packages (~1.5 MB of word lists before minification) are loaded
 * with `import()` only when `loadPasswordDictionaries` is called, so a bundle that merely imports the password rules
 * does not contain them: the web loads them in the password-strength worker, the server once at start-up.
 */
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { buildWordIndex, type WordIndex } from './word-index.js';

/**
 * zxcvbn-ts scores (0-4) only this many first characters of a password. Its matching grows with the square of the
 * length (about 2 to 8 s for 256 characters with its l33t matching on): 64 characters keep the worst case of a
 * check to a few tens of milliseconds (docs/decisions/018-fair-password-rules.md), and a password longer than that
 * is scored on its first 64 characters, which can only underestimate it. The word rules check the whole password.
 */
export const ZXCVBN_MAX_LENGTH = 32;

let zxcvbn: ZxcvbnFactory | undefined;
let wordIndex: WordIndex | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads the zxcvbn-ts dictionaries (language-common + language-en) and keyboard graphs (language-common), sets up
 * the scorer used by `evaluatePassword` and builds the word index of the "no common words" rule (word-index.ts).
 * Idempotent: every call returns the same promise. If loading fails (e.g. a chunk could not be fetched), the promise
 * rejects and the next call tries again.
 */
export function loadPasswordDictionaries(): Promise<void> {
  if (loading) return loading;
  const attempt = Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]).then(([core, common, en]) => {
    const dictionary = { ...common.dictionary, ...en.dictionary };
    zxcvbn = new core.ZxcvbnFactory({
      dictionary,
      graphs: common.adjacencyGraphs,
      translations: en.translations,
      // The word rules of words.ts find substituted, reversed and near-miss words themselves, for the whole
      // password and in bounded time; zxcvbn's own l33t matching took most of its time (55-70 ms of a median check,
      // seconds for long passwords) and its Levenshtein matching 0.4-5 s per check (decision 005). Both are off:
      // zxcvbn only scores.
      l33tTable: {},
      useLevenshteinDistance: false,
      maxLength: ZXCVBN_MAX_LENGTH,
    });
    wordIndex = buildWordIndex(dictionary);
  });
  loading = attempt;
  attempt.catch(() => {
    if (loading === attempt) loading = undefined;
  });
  return attempt;
}

/** The configured scorer, or undefined while `loadPasswordDictionaries` has not completed. */
export function loadedZxcvbn(): ZxcvbnFactory | undefined {
  return zxcvbn;
}

/** The word index of the "no common words" rule, or undefined while `loadPasswordDictionaries` has not completed. */
export function loadedWordIndex(): WordIndex | undefined {
  return wordIndex;
}
