/**
 * The corpus test of decision 018: the rules accept random passwords (at least 990 of 1,000) and refuse what a
 * guesser tries, each with the SPEC message that names why; the server's function and the evaluation agree.
 */
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluatePassword, findCommonPattern, loadPasswordDictionaries, passwordProblems } from '../password.js';
import {
  COMMON_ENGLISH_WORDS,
  COMMON_PASSWORD_WORDS,
  FIRST_NAMES,
  guessablePasswords,
  RANDOM_EXAMPLES,
  randomPasswords,
} from './corpus.js';

// SPEC section 5, verbatim.
const MESSAGES = {
  noCommon: 'Password contains common words or patterns. Please choose a more unique password',
  noSequence: 'Avoid sequential characters or keyboard patterns',
  noRepeat: 'Avoid repeating the same character multiple times in a row',
} as const;

const TOO_WEAK = 'Password is too weak. Add more words or characters to make it stronger.';

const RANDOM_COUNT = 1_000;
const RANDOM_MIN_ACCEPTED = 990;
const RANDOM_SEED = 2025;

beforeAll(async () => {
  await loadPasswordDictionaries();
}, 30_000);

describe('random passwords', { timeout: 60_000 }, () => {
  it('makes 16-character passwords with every class, the same for the same seed', () => {
    const passwords = randomPasswords(RANDOM_COUNT, RANDOM_SEED);
    expect(passwords).toHaveLength(RANDOM_COUNT);
    expect(new Set(passwords).size).toBe(RANDOM_COUNT);
    for (const password of passwords) {
      expect(password).toMatch(/^[\x21-\x7e]{16}$/);
      for (const pattern of [/[A-Z]/, /[a-z]/, /[0-9]/, /[^A-Za-z0-9]/]) expect(password).toMatch(pattern);
    }
    expect(randomPasswords(5, RANDOM_SEED)).toEqual(passwords.slice(0, 5));
    expect(randomPasswords(5, RANDOM_SEED + 1)).not.toEqual(passwords.slice(0, 5));
  });

  it(`accepts at least ${RANDOM_MIN_ACCEPTED} of ${RANDOM_COUNT} random 16-character passwords`, () => {
    const refused = randomPasswords(RANDOM_COUNT, RANDOM_SEED)
      .map((password) => ({ password, evaluation: evaluatePassword(password) }))
      .filter(({ evaluation }) => !evaluation.valid);
    const accepted = RANDOM_COUNT - refused.length;
    console.info(
      `Random 16-character passwords accepted: ${accepted} of ${RANDOM_COUNT} (seed ${RANDOM_SEED}). Refused:\n` +
        refused
          .map(({ password, evaluation }) => {
            const found = findCommonPattern(password);
            const why = found ? ` (${found.kind} '${found.token}' = '${found.word}')` : '';
            return `  ${password}: ${evaluation.problems.join('; ') || `score ${evaluation.score}`}${why}`;
          })
          .join('\n'),
    );
    expect(accepted).toBeGreaterThanOrEqual(RANDOM_MIN_ACCEPTED);
  });

  it.each(RANDOM_EXAMPLES)('accepts %s', (password) => {
    const evaluation = evaluatePassword(password);
    expect(evaluation).toMatchObject({ valid: true, problems: [], dictionaryChecked: true });
    expect(evaluation.score).toBeGreaterThanOrEqual(3);
  });
});

describe('guessable passwords', { timeout: 30_000 }, () => {
  const corpus = guessablePasswords();

  it('has at least 200 distinct passwords of at least 12 characters with every class', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(200);
    expect(new Set(corpus.map(({ password }) => password)).size).toBe(corpus.length);
    for (const { password } of corpus) {
      const { requirements } = evaluatePassword(password);
      const unmet = requirements.filter(
        ({ met, key }) => !met && !['noCommon', 'noSequence', 'noRepeat'].includes(key),
      );
      // Only the rules this corpus is about refuse them: length and character classes are met.
      expect(unmet, password).toEqual([]);
    }
  });

  it('builds on words of the zxcvbn-ts lists', () => {
    const dictionary: Record<string, readonly unknown[]> = { ...common.dictionary, ...en.dictionary };
    const rank = (list: string, word: string) => (dictionary[list] ?? []).indexOf(word.toLowerCase()) + 1;
    for (const word of COMMON_PASSWORD_WORDS) {
      expect(rank('passwords-common', word), word).toBeGreaterThan(0);
      expect(rank('passwords-common', word), word).toBeLessThanOrEqual(200);
    }
    for (const word of COMMON_ENGLISH_WORDS) expect(rank('commonWords-en', word), word).toBeGreaterThan(0);
    for (const name of FIRST_NAMES) {
      expect(rank('firstnames-en', name) || rank('passwords-common', name), name).toBeGreaterThan(0);
    }
  });

  it.each(corpus)("refuses $password ($kind) with the '$message' message", ({ password, message }) => {
    const evaluation = evaluatePassword(password);
    expect(evaluation.valid).toBe(false);
    expect(evaluation.dictionaryChecked).toBe(true);
    expect(evaluation.problems).toContain(MESSAGES[message]);
    expect(evaluation.score).toBeLessThanOrEqual(2);
  });

  it('finds what gives away the examples of issue 25', () => {
    expect(findCommonPattern('MyDogRex2019!!')).toEqual({
      kind: 'passphrase',
      token: 'MyDogRex2019!!',
      word: 'my dog rex',
    });
    expect(findCommonPattern('Tr0ub4dor&3Zq')).toEqual({ kind: 'nearMiss', token: 'Tr0ub4dor', word: 'troubadours' });
    expect(findCommonPattern('Summer2024!!')).toMatchObject({ kind: 'word', word: 'summer' });
    expect(findCommonPattern('Jennifer1987!')).toMatchObject({ kind: 'word', word: 'jennifer' });
    expect(findCommonPattern('P@$$w0rd2024!')).toMatchObject({ kind: 'l33t', word: 'password' });
    expect(findCommonPattern('Qualitx!2019#')).toMatchObject({ kind: 'nearMiss', word: 'quality' });
    expect(findCommonPattern('Vaccinatoin!24')).toMatchObject({ kind: 'nearMiss', word: 'vaccination' });
    expect(findCommonPattern('Enihsnus!2019')).toMatchObject({ kind: 'reversed', word: 'sunshine' });
    expect(findCommonPattern('1q2w3e4r!Xqz')).toMatchObject({ kind: 'word', word: '1q2w3e4r' });
    // Random fragments are not words: odd case patterns, l33t-heavy fragments, three-letter runs.
    for (const password of RANDOM_EXAMPLES) expect(findCommonPattern(password), password).toBeUndefined();
  });
});

describe('one function for the server and the web', { timeout: 60_000 }, () => {
  const corpus = [...guessablePasswords().map(({ password }) => password), ...randomPasswords(200, RANDOM_SEED)];

  it('passwordProblems (server, schemas) is empty exactly when evaluatePassword (web) is valid, with its problems', () => {
    for (const password of [...corpus, ...RANDOM_EXAMPLES]) {
      const evaluation = evaluatePassword(password);
      const problems = passwordProblems(password);
      expect(evaluation.valid, password).toBe(problems.length === 0);
      const expected = evaluation.valid ? [] : evaluation.problems.length ? evaluation.problems : [TOO_WEAK];
      expect(problems, password).toEqual(expected);
    }
  });
});
