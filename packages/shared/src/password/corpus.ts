/**
 * Test corpus of the password rules (docs/decisions/018-fair-password-rules.md): passwords a guesser tries, each with
 * the SPEC message that must refuse it, and random passwords from a seeded generator, which must be accepted. Used by
 * the shared corpus test and by the web test that compares the strength meter's answer with the server's.
 */

/** The requirement a guessable password of the corpus breaks (a key of PASSWORD_MESSAGES). */
export type CorpusMessageKey = 'noCommon' | 'noSequence' | 'noRepeat';

export interface GuessablePassword {
  password: string;
  /** The requirement whose SPEC message must be among the problems. */
  message: CorpusMessageKey;
  /** What kind of guess it is. */
  kind: string;
}

/** Common passwords of the zxcvbn-ts list (language-common `passwords-common`, all in its top 200). */
export const COMMON_PASSWORD_WORDS = [
  'password',
  'dragon',
  'baseball',
  'football',
  'monkey',
  'letmein',
  'shadow',
  'master',
  'michael',
  'mustang',
  'superman',
  'jordan',
  'jennifer',
  'hunter',
  'harley',
  'buster',
  'andrew',
  'batman',
  'soccer',
  'tigger',
  'charlie',
  'robert',
  'sunshine',
  'thomas',
  'iloveyou',
  'ranger',
  'daniel',
  'hockey',
  'george',
  'computer',
  'michelle',
  'jessica',
  'starwars',
  'pepper',
  'freedom',
  'princess',
  'joshua',
  'maggie',
  'ginger',
  'amanda',
  'ashley',
  'cheese',
  'nicole',
  'summer',
  'matthew',
  'chelsea',
  'dallas',
  'matrix',
  'william',
  'yankees',
  'taylor',
  'corvette',
  'austin',
  'access',
  'martin',
  'heather',
  'thunder',
  'merlin',
  'secret',
  'diamond',
  'hello',
  'anthony',
  'hammer',
  'silver',
  'justin',
  'patrick',
  'richard',
  'bailey',
  'internet',
  'samantha',
  'scooter',
  'orange',
  'cookie',
  'maverick',
  'jackson',
  'phoenix',
  'snoopy',
  'guitar',
  'whatever',
  'chicken',
  'morgan',
  'mercedes',
  'peanut',
  'ferrari',
  'cowboy',
  'falcon',
  'welcome',
  'joseph',
  'dakota',
  'melissa',
  'arsenal',
  'eagles',
  'gateway',
  'yellow',
  'monster',
  'spider',
  'hannah',
  'bulldog',
  'london',
  'purple',
] as const;

/** English words (language-en `commonWords-en`) people build passwords on. */
export const COMMON_ENGLISH_WORDS = [
  'butterfly',
  'elephant',
  'chocolate',
  'beautiful',
  'rainbow',
  'flower',
  'friends',
  'family',
  'happiness',
  'blessed',
  'forever',
  'angel',
  'heaven',
  'summertime',
  'nurse',
  'doctor',
  'hospital',
  'health',
  'patient',
  'quality',
] as const;

/** First names (language-en `firstnames-en`, or for men's names, which that list lacks, `passwords-common`). */
export const FIRST_NAMES = [
  'Jennifer',
  'Michael',
  'Jessica',
  'Ashley',
  'Matthew',
  'Christopher',
  'Amanda',
  'Joshua',
  'Sarah',
  'Robert',
  'Melissa',
  'David',
  'Emily',
  'Olivia',
  'Sophia',
  'Brandon',
  'Tyler',
  'Megan',
  'Rachel',
  'Lauren',
  'Kevin',
  'Stephanie',
  'Elizabeth',
  'Jacob',
  'Emma',
  'Noah',
  'Liam',
  'Mary',
] as const;

const SEASONS = ['Summer', 'Winter', 'Spring', 'Autumn', 'SUMMER', 'winter'] as const;
const MONTHS = ['January', 'February', 'March', 'April', 'August', 'October', 'November', 'December'] as const;
/** Years without three digits in a row (1987 is also a sequence, 1999 a repeat), so that the word is the reason. */
const YEARS = ['2024', '2019', '1990', '2008', '1975', '2020', '1984', '2021', '1968', '2025'] as const;
const SYMBOLS = ['!', '#', '$', '@', '*', '?', '%', '&'] as const;

const L33T: Readonly<Record<string, string>> = { a: '@', o: '0', i: '1', e: '3', s: '$' };

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** The usual substitutions (a -> @, o -> 0, i -> 1, e -> 3, s -> $) after a capital first letter: 'P@$$w0rd'. */
function l33t(word: string): string {
  return capitalize(word.charAt(0)) + Array.from(word.slice(1), (char) => L33T[char] ?? char).join('');
}

/** Adds a year and symbols until the password has 12 characters: 'Dragon!2024#'. */
function withYear(base: string, n: number): string {
  let password = `${base}${SYMBOLS[n % SYMBOLS.length]}${YEARS[n % YEARS.length]}`;
  for (let i = 1; Array.from(password).length < 12; i++) password += SYMBOLS[(n + i) % SYMBOLS.length];
  return password;
}

/** Passwords a guesser tries, each with the SPEC message that refuses it. */
export function guessablePasswords(): GuessablePassword[] {
  const list: GuessablePassword[] = [];
  const add = (password: string, message: CorpusMessageKey, kind: string): void => {
    list.push({ password, message, kind });
  };

  COMMON_PASSWORD_WORDS.forEach((word, n) => {
    add(withYear(capitalize(word), n), 'noCommon', 'common password + year');
    add(withYear(l33t(word), n + 3), 'noCommon', 'common password, l33t');
    if (n % 4 === 0) add(`${withYear(word.toUpperCase(), n)}x`, 'noCommon', 'common password in capitals');
    if (n % 10 === 0)
      add(withYear(capitalize([...word].reverse().join('')), n), 'noCommon', 'common password reversed');
  });
  COMMON_ENGLISH_WORDS.forEach((word, n) => {
    add(withYear(capitalize(word), n + 1), 'noCommon', 'dictionary word + year');
    if (n % 2 === 0) add(withYear(l33t(word), n), 'noCommon', 'dictionary word, l33t');
  });
  for (const [n, name] of FIRST_NAMES.entries()) add(withYear(name, n + 5), 'noCommon', 'name + year');
  SEASONS.forEach((season, n) => {
    const otherCase = season === season.toUpperCase() ? 'x' : season === season.toLowerCase() ? 'X' : 'Q';
    add(`${season}${YEARS[n]}!${otherCase}`, 'noCommon', 'season + year');
    add(`${season}@${YEARS[n + 2]}${otherCase}`, 'noCommon', 'season + year');
  });
  for (const [n, month] of MONTHS.entries()) add(withYear(month, n + 2), 'noCommon', 'month + year');

  for (const [password, kind] of [
    ['MyDogRex2019!!', 'passphrase of short words + year'],
    ['Tr0ub4dor&3Zq', 'near miss of a dictionary word, l33t'],
    ['Summer2024!!', 'season + year'],
    ['Jennifer1987!', 'name + year'],
    ['Password123!', 'common password + digits'],
    ['P@ssw0rd!Xq7z', 'l33t common password'],
    ['P@$$w0rd2024!', 'l33t common password'],
    ['Drowssap!Xq7z', 'reversed common password'],
    ['Enihsnus!2019', 'reversed common password'],
    ['Retupmoc!2019', 'reversed common password'],
    ['Sunshine#4812Q', 'common password'],
    ['onetwothreeX1!', 'word sequence'],
    ['MyCatTom2020!', 'passphrase of short words + year'],
    ['TheSunIsHot24!', 'passphrase of short words + year'],
    ['YesWeCan2008!?', 'passphrase of short words + year'],
    ['BigRedDog#2020', 'passphrase of short words + year'],
    ['MyPetCat2021#', 'passphrase of short words + year'],
    ['Pasword!2019#', 'near miss (one letter missing)'],
    ['Passwrod!2019#', 'near miss (two letters swapped)'],
    ['Sunshyne!2019#', 'near miss (one letter changed)'],
    ['Jenifer!1990#x', 'near miss of a name'],
    ['Monkee!2024#Zq', 'near miss'],
    ['Chocolat3!2019', 'near miss, l33t'],
    ['Butterfli#2020', 'near miss'],
    ['Xylophonx!2019', 'near miss (one letter changed)'],
    ['Qualitx!2019#', 'near miss (one letter changed)'],
    ['Vaccinatoin!24', 'near miss (two letters swapped)'],
    ['Eqiupment!2019', 'near miss (two letters swapped)'],
    ['Wednesdya!2019', 'near miss (two letters swapped)'],
    ['1q2w3e4r!Xqz', 'common password with digits'],
    ['Trustno1!2019x', 'common password with digits'],
    ['Ｐａｓｓｗｏｒｄ!2024', 'full-width common password'],
  ] as const) {
    add(password, 'noCommon', kind);
  }

  for (const walk of [
    'Qwer!234asdf',
    'Qwerty!2019x',
    'Asdf#2019Zxcv',
    '1qaz@WSX3edc',
    'Zaq1@wsx#Edc',
    '!QAZ2wsx3EDC',
    'Qwertyuiop1!',
    'Zxcvbnm!2019',
    'Poiu#2019Lkjh',
    'Mq8#zxcvLt5!w',
    'Tp5!1qazVm8#Lw',
    'Xk#9!@#$Pm2w',
    'Vq9!rT#mLp;lkj',
    'Rewq!2019Xzmp',
    'Hq7!asdfRt#wXv',
    'ｑｗｅｒ!2019Xzm',
  ]) {
    add(walk, 'noSequence', 'keyboard walk');
  }
  const runs = ['123', '987', '١٢٣', '٩٨٧', '۴۵۶', '१२३', '১২৩', '๑๒๓', '１２３', '９８７', '𝟏𝟐𝟑', '7890', '3210'];
  for (const [n, run] of runs.entries())
    add(`Vq!rT#mL${SYMBOLS[n % SYMBOLS.length]}Zx${run}`, 'noSequence', 'digit run');
  for (const run of ['abcd', 'WXYZ', 'dcba', 'mNoP', 'LKJI']) add(`Vq9!${run}#Tz7x`, 'noSequence', 'letter run');
  for (const repeat of ['aaa', '!!!', '777', 'ZZZ', '$$$', 'ééé']) {
    add(`Kx7#qPv9!mZt${repeat}`, 'noRepeat', 'repeated character');
  }
  add('Kx7#qPv9!!!mZt2', 'noRepeat', 'repeated character');
  return list;
}

/** A seeded random generator (mulberry32): the same seed gives the same numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
/** The 32 ASCII specials (printable, neither letter nor digit nor space). */
const SPECIALS = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
const CLASSES = [UPPER, LOWER, DIGITS, SPECIALS] as const;
const ALPHABET = CLASSES.join('');

/**
 * `count` random passwords of `length` characters, each drawn uniformly from the 94 ASCII letters, digits and
 * specials, keeping only those with at least one character of each class (as a password manager makes them).
 */
export function randomPasswords(count: number, seed: number, length = 16): string[] {
  const random = seededRandom(seed);
  const passwords: string[] = [];
  while (passwords.length < count) {
    let password = '';
    for (let i = 0; i < length; i++) password += ALPHABET[Math.floor(random() * ALPHABET.length)];
    if (CLASSES.every((chars) => Array.from(password).some((char) => chars.includes(char)))) passwords.push(password);
  }
  return passwords;
}

/** The random passwords of issue 25 that the rules of decision 005 refused, and the demo password. */
export const RANDOM_EXAMPLES = [
  'Zr8$kLm2#Wq9vBn4',
  'H3l7rEUS4WS46m+Z',
  '_1DSb_#PqR#29y5s',
  'Kx7#qPv9!mZt2$Lw',
] as const;
