import { beforeAll, describe, expect, it, vi } from 'vitest';
import { digitValue, hasSequence, hasTripleRepeat } from './password/sequences.js';
import {
  evaluatePassword,
  loadPasswordDictionaries,
  PASSWORD_MESSAGES,
  PASSWORD_MIN_LENGTH,
  PASSWORD_REQUIREMENT_KEYS,
  PASSWORD_STRENGTH_LABELS,
  passwordProblems,
} from './password.js';

// The SPEC section 5 messages, spelled out so that a change of wording in the module fails the tests.
const LENGTH = 'Password must be at least 12 characters long';
const UPPERCASE = 'Password must contain an uppercase letter';
const LOWERCASE = 'Password must contain a lowercase letter';
const DIGIT = 'Password must contain a digit';
const SPECIAL = 'Password must contain a special character';
const COMMON = 'Password contains common words or patterns. Please choose a more unique password';
const SEQUENCE = 'Avoid sequential characters or keyboard patterns';
const REPEAT = 'Avoid repeating the same character multiple times in a row';
const TOO_WEAK = 'Password is too weak. Add more words or characters to make it stronger.';

// Loading the dictionaries and building the word index takes about a second; a check takes milliseconds.
const ZXCVBN_TIMEOUT = 30_000;

beforeAll(async () => {
  await loadPasswordDictionaries();
}, ZXCVBN_TIMEOUT);

describe('passwordProblems (basic SPEC rules)', { timeout: ZXCVBN_TIMEOUT }, () => {
  it('accepts a long password with every character class', () => {
    expect(passwordProblems('Kx7#qPv9!mZt2$Lw')).toEqual([]);
  });

  it('names each missing requirement', () => {
    expect(passwordProblems('short')).toContain('Password must be at least 12 characters long');
    expect(passwordProblems('alllowercase12!')).toContain('Password must contain an uppercase letter');
    expect(passwordProblems('ALLUPPERCASE12!')).toContain('Password must contain a lowercase letter');
    expect(passwordProblems('NoDigitsHere!!x')).toContain('Password must contain a digit');
    expect(passwordProblems('NoSpecials12345a')).toContain('Password must contain a special character');
    expect(passwordProblems('Kx7#qPv9!mZt2$Lwwww')).toContain(
      'Avoid repeating the same character multiple times in a row',
    );
  });
});

describe('loadPasswordDictionaries', () => {
  it('is idempotent: every call returns the same promise', () => {
    expect(loadPasswordDictionaries()).toBe(loadPasswordDictionaries());
  });

  it('makes evaluatePassword use the dictionaries', () => {
    expect(evaluatePassword('Kx7#qPv9!mZt2$Lw').dictionaryChecked).toBe(true);
  });
});

describe('evaluatePassword with the dictionaries loaded', { timeout: ZXCVBN_TIMEOUT }, () => {
  // `exact`: the message is the only problem; otherwise it is one of several.
  const mustFail: { password: string; reason: string; message: string; exact?: boolean }[] = [
    { password: 'short1!A', reason: '8 characters', message: LENGTH },
    { password: 'Kx7#qPv9!mZ', reason: '11 characters', message: LENGTH, exact: true },
    { password: 'alllowercase12!', reason: 'no uppercase letter', message: UPPERCASE },
    { password: 'kx7#qpv9!mzt2$lw', reason: 'no uppercase letter', message: UPPERCASE, exact: true },
    { password: 'KX7#QPV9!MZT2$LW', reason: 'no lowercase letter', message: LOWERCASE, exact: true },
    { password: 'Kx#qPv!mZt$Lw&Rn', reason: 'no digit', message: DIGIT, exact: true },
    { password: 'Kx7qPv9mZt2Lw4Rn', reason: 'no special character', message: SPECIAL, exact: true },
    { password: 'Password123!', reason: 'common password with digits and a symbol', message: COMMON },
    { password: 'Sunshine#4812Q', reason: 'common password as a word', message: COMMON, exact: true },
    { password: 'P@ssw0rd!Xq7z', reason: 'l33t common password', message: COMMON, exact: true },
    { password: 'Drowssap!Xq7z', reason: 'reversed common password', message: COMMON, exact: true },
    { password: 'onetwothreeX1!', reason: 'word sequence', message: COMMON, exact: true },
    { password: 'Qwertyuiop12!', reason: 'keyboard row', message: SEQUENCE },
    { password: 'Mq8#zxcvLt5!w', reason: 'keyboard row zxcv', message: SEQUENCE, exact: true },
    { password: 'Xk#9!QAZPm2!w', reason: 'keyboard column !QAZ (shifted 1qaz)', message: SEQUENCE, exact: true },
    { password: 'Tp5!1qazVm8#Lw', reason: 'keyboard column 1qaz', message: SEQUENCE, exact: true },
    { password: 'Zebra123Moon!x', reason: 'ascending digits 123', message: SEQUENCE },
    { password: 'Zebra987Moon!x', reason: 'descending digits 987', message: SEQUENCE },
    { password: 'Hq7!x123Rt#wXv', reason: 'ascending digits 123', message: SEQUENCE, exact: true },
    { password: 'Hq7!x987Rt#wXv', reason: 'descending digits 987', message: SEQUENCE, exact: true },
    { password: 'Hq7!abcdRt5#wX', reason: 'ascending letters abcd', message: SEQUENCE, exact: true },
    { password: 'Hq7!DCBARt5#wX', reason: 'descending letters DCBA', message: SEQUENCE, exact: true },
    { password: 'Hq7!x١٢٣Rt#wXv', reason: 'ascending Arabic-Indic digits ١٢٣', message: SEQUENCE, exact: true },
    { password: 'Hq7!x９８７Rt#wXv', reason: 'descending full-width digits ９８７', message: SEQUENCE, exact: true },
    { password: 'MyDogRex2019!!', reason: 'short common words and a year', message: COMMON, exact: true },
    {
      password: 'Tr0ub4dor&3Zq',
      reason: "two edits from a dictionary word ('troubadours')",
      message: COMMON,
      exact: true,
    },
    { password: 'Summer2024!#', reason: 'season and year', message: COMMON, exact: true },
    { password: 'Kx7#qPv9!mZtaaa', reason: 'aaa', message: REPEAT, exact: true },
    { password: 'Kx7#qPv9!!!mZt2', reason: '!!!', message: REPEAT, exact: true },
  ];

  it.each(mustFail)('rejects $password ($reason)', ({ password, message, exact }) => {
    const evaluation = evaluatePassword(password);
    expect(evaluation.valid).toBe(false);
    expect(evaluation.dictionaryChecked).toBe(true);
    if (exact) expect(evaluation.problems).toEqual([message]);
    else expect(evaluation.problems).toContain(message);
    // An unmet requirement caps the score at 2.
    expect(evaluation.score).toBeLessThanOrEqual(2);
    // passwordProblems agrees: the same messages.
    expect(passwordProblems(password)).toEqual(evaluation.problems);
  });

  const mustPass = [
    { password: 'Kx7#qPv9!mZt2$Lw', reason: 'demo password, 16 characters' },
    { password: 'Vq9!rT4#mLp2$Xz8', reason: '16 random characters' },
    { password: 'Kx7#qPv9!mZt', reason: 'exactly 12 characters' },
    { password: 'Kx7#qPv9!mZt2$Lw4Rn8', reason: '20 characters' },
    { password: 'Kx7 qPv9 mZt2', reason: 'spaces count as special characters' },
    { password: 'Çx7#qPv9!mZt', reason: 'non-ASCII uppercase letter' },
    { password: 'Kp2@Kp2@Lm5%', reason: 'zxcvbn score 3' },
    // Issue 25: random passwords the rules of decision 005 refused.
    { password: 'Zr8$kLm2#Wq9vBn4', reason: "three letters in alphabetical order ('kLm') are no sequence" },
    { password: 'Hq7!kLmRt5#wX', reason: "three letters in alphabetical order ('kLm') are no sequence" },
    { password: 'H3l7rEUS4WS46m+Z', reason: "'H3l7' and 'rEUS' are fragments, not words" },
    { password: '_1DSb_#PqR#29y5s', reason: 'random characters' },
  ];

  it.each(mustPass)('accepts $password ($reason)', ({ password }) => {
    const evaluation = evaluatePassword(password);
    expect(evaluation).toMatchObject({ valid: true, problems: [], dictionaryChecked: true });
    expect(evaluation.score).toBeGreaterThanOrEqual(3);
    expect(evaluation.requirements.every((requirement) => requirement.met)).toBe(true);
    expect(passwordProblems(password)).toEqual([]);
  });

  it('lists problems and requirements in a stable order', () => {
    const evaluation = evaluatePassword('short');
    expect(evaluation.problems).toEqual([LENGTH, UPPERCASE, DIGIT, SPECIAL, COMMON]);
    expect(evaluation.requirements).toEqual([
      { key: 'length', label: 'At least 12 characters', met: false },
      { key: 'uppercase', label: 'An uppercase letter', met: false },
      { key: 'lowercase', label: 'A lowercase letter', met: true },
      { key: 'digit', label: 'A digit', met: false },
      { key: 'special', label: 'A special character', met: false },
      { key: 'noCommon', label: 'No common words or patterns', met: false },
      { key: 'noSequence', label: 'No sequences or keyboard patterns', met: true },
      { key: 'noRepeat', label: 'No character repeated three times in a row', met: true },
    ]);
    expect(evaluation.requirements.map((requirement) => requirement.key)).toEqual([...PASSWORD_REQUIREMENT_KEYS]);
  });

  it('flags words from the user inputs', () => {
    expect(evaluatePassword('Qz7#Vexmorq!V2w').valid).toBe(true);
    expect(evaluatePassword('Qz7#Vexmorq!V2w', { userInputs: ['vexmorq'] }).problems).toEqual([COMMON]);
    // In any case, substituted, backwards, and as part of a username or an email name.
    for (const password of ['Qz7#vExMoRq!V2w', 'Qz7#V3xm0rq!V2w', 'Qz7#Qromxev!V2w']) {
      expect(evaluatePassword(password, { userInputs: ['vexmorq'] }).problems, password).toEqual([COMMON]);
    }
    expect(evaluatePassword('Qz7#Vexmorq!V2w', { userInputs: ['vexmorq42'] }).problems).toEqual([COMMON]);
    expect(evaluatePassword('Qz7#Vexmorq!V2w', { userInputs: ['anna.vexmorq'] }).problems).toEqual([COMMON]);
    // Words of fewer than 4 characters are no user words.
    expect(evaluatePassword('Qz7#Vex!mQr2w', { userInputs: ['vex'] }).valid).toBe(true);
  });

  it('labels each score', () => {
    expect(PASSWORD_STRENGTH_LABELS).toEqual(['Very Weak', 'Weak', 'Fair', 'Strong', 'Very Strong']);
    const examples = [
      { password: '', score: 0, label: 'Very Weak' },
      { password: 'Password123!', score: 1, label: 'Weak' },
      { password: 'Hq7!abcdRt5#wX', score: 2, label: 'Fair' },
      { password: 'Kp2@Kp2@Lm5%', score: 3, label: 'Strong' },
      { password: 'Kx7#qPv9!mZt2$Lw', score: 4, label: 'Very Strong' },
    ];
    for (const { password, score, label } of examples) {
      expect(evaluatePassword(password), password).toMatchObject({ score, label });
    }
  });

  it('adds 1 to the score at 16 and again at 20 characters', () => {
    expect(evaluatePassword('Kx7#qPv9!mZt2$Lw4Rn8')).toMatchObject({ score: 4, label: 'Very Strong', valid: true });
    // Every requirement is met, but zxcvbn finds repeated blocks easy to guess: length earns no bonus then.
    for (const repeated of ['Ab1!Ab1!Ab1!', 'Ab1!Ab1!Ab1!Ab1!', 'Ab1!Ab1!Ab1!Ab1!Ab1!']) {
      expect(evaluatePassword(repeated).score, repeated).toBeLessThan(3);
      expect(evaluatePassword(repeated).valid, repeated).toBe(false);
    }
  });

  it('rejects a password that meets every requirement but scores below 3', () => {
    const evaluation = evaluatePassword('Ab1!Ab1!Ab1!');
    expect(evaluation).toMatchObject({ valid: false, problems: [] });
    // passwordProblems is empty exactly when the evaluation is valid, so it explains the low score.
    expect(passwordProblems('Ab1!Ab1!Ab1!')).toEqual([TOO_WEAK]);
  });

  it('gives no length bonus when a requirement is unmet, and lowers the score for a triple repeat', () => {
    // 20 characters but a keyboard row: capped at 2, no bonus.
    expect(evaluatePassword('Kx7#qPv9!mZt2$Lwqwer').score).toBe(2);
    // Capped at 2, then 1 less for the repeat.
    expect(evaluatePassword('Kx7#qPv9!mZt2$Lwwww').score).toBe(1);
  });

  it('exports the SPEC messages and the minimum length', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(12);
    expect(PASSWORD_MESSAGES).toEqual({
      length: LENGTH,
      uppercase: UPPERCASE,
      lowercase: LOWERCASE,
      digit: DIGIT,
      special: SPECIAL,
      noCommon: COMMON,
      noSequence: SEQUENCE,
      noRepeat: REPEAT,
      tooWeak: TOO_WEAK,
    });
  });
});

describe('evaluatePassword before the dictionaries are loaded', () => {
  // A fresh copy of the module, whose dictionaries have not been loaded.
  async function freshModule() {
    vi.resetModules();
    return import('./password.js');
  }

  it('enforces the character, sequence and repeat rules and reports dictionaryChecked: false', async () => {
    const fresh = await freshModule();
    const cases = [
      { password: 'short1!A', message: LENGTH },
      { password: 'kx7#qpv9!mzt2$lw', message: UPPERCASE },
      { password: 'KX7#QPV9!MZT2$LW', message: LOWERCASE },
      { password: 'Kx#qPv!mZt$Lw&Rn', message: DIGIT },
      { password: 'Kx7qPv9mZt2Lw4Rn', message: SPECIAL },
      { password: 'Qwertyuiop12!', message: SEQUENCE },
      { password: 'Zebra987Moon!x', message: SEQUENCE },
      { password: 'Kx7#qPv9!mZtaaa', message: REPEAT },
    ];
    for (const { password, message } of cases) {
      const evaluation = fresh.evaluatePassword(password);
      expect(evaluation.dictionaryChecked, password).toBe(false);
      expect(evaluation.valid, password).toBe(false);
      expect(evaluation.problems, password).toEqual([message]);
      expect(fresh.passwordProblems(password), password).toEqual([message]);
    }
  });

  it('cannot detect common words, and reports that requirement as met', async () => {
    const fresh = await freshModule();
    const evaluation = fresh.evaluatePassword('Sunshine#4812Q');
    expect(evaluation).toMatchObject({ valid: true, dictionaryChecked: false, problems: [] });
    expect(evaluation.requirements.find((requirement) => requirement.key === 'noCommon')?.met).toBe(true);
  });

  it('scores by length and character classes, with the length bonuses', async () => {
    const fresh = await freshModule();
    expect(fresh.evaluatePassword('Kx7#qPv9!mZt')).toMatchObject({ score: 3, label: 'Strong', valid: true });
    expect(fresh.evaluatePassword('Kx7#qPv9!mZt2$Lw')).toMatchObject({ score: 4, label: 'Very Strong', valid: true });
    expect(fresh.evaluatePassword('short1!A')).toMatchObject({ score: 2, label: 'Fair' });
    expect(fresh.evaluatePassword('abc')).toMatchObject({ score: 0, label: 'Very Weak' });
    expect(fresh.evaluatePassword('')).toMatchObject({ score: 0, valid: false });
  });
});

describe('sequence and repeat detection', () => {
  it.each([
    'abcd',
    'wXyZ',
    'DCBA',
    '123',
    '987',
    '7890',
    '٠١٢',
    '۹۸۷',
    '१२३',
    '１２３',
    '𝟕𝟖𝟗',
    'ｑｗｅｒ',
    'qwer',
    'REWQ',
    'asdf',
    'zxcv',
    '1qaz',
    'zaq1',
    '2wsx',
    '!@#$',
    '!QAZ',
    'poiu',
  ])('finds a sequence in %s', (text) => {
    expect(hasSequence(`K#${text}#M`)).toBe(true);
  });

  it.each([
    'ab1',
    'acb',
    'a1b2c3',
    '13579',
    'qwe',
    'asd',
    '890',
    'Kx7#qPv9!mZt2$Lw',
    'Vq9!rT4#mLp2$Xz8',
    'zA',
    // Three letters in alphabetical order are no pattern: 'kLm' is in about one random password in a hundred.
    'abc',
    'kLm',
    'xYz',
    'CBA',
    'Zr8$kLm2#Wq9vBn4',
    // Two digits in a row, in any script, and digits out of order.
    '١٢x٣',
    '٣٥٧',
  ])('finds no sequence in %s', (text) => {
    expect(hasSequence(text)).toBe(false);
  });

  it('reads the value of a digit of any script', () => {
    for (const seven of ['7', '٧', '۷', '७', '৭', '๗', '７', '𝟕', '𝟳']) expect(digitValue(seven), seven).toBe(7);
    for (const zero of ['0', '٠', '０', '𝟎']) expect(digitValue(zero), zero).toBe(0);
    for (const other of ['a', '⑦', 'Ⅶ', '', '77']) expect(digitValue(other), other).toBeUndefined();
  });

  it('finds the same character three times in a row, case-sensitively', () => {
    expect(hasTripleRepeat('xaaay')).toBe(true);
    expect(hasTripleRepeat('x111y')).toBe(true);
    expect(hasTripleRepeat('x!!!y')).toBe(true);
    expect(hasTripleRepeat('xaay')).toBe(false);
    expect(hasTripleRepeat('xaAay')).toBe(false);
    expect(hasTripleRepeat('x😀😀😀y')).toBe(true);
  });
});
