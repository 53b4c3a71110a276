/**
 * Rule checks that need no dictionary: sequences, keyboard patterns and repeated characters. They give the same
 * answer before and after the zxcvbn dictionaries are loaded.
 *
 * What counts is what SPEC section 5 names and a person recognises: keyboard runs of 4 keys or more, 3 ascending or
 * descending digits (in any script), and 4 letters or more in alphabetical order. Three letters in alphabetical order
 * ('kLm', 'abc') are not a pattern: they turn up in about one random password in a hundred.
 */

/** Shortest run along a keyboard row or column that counts as a keyboard pattern (qwer, asdf, 1qaz, !@#$). */
export const KEYBOARD_RUN_LENGTH = 4;
/** Shortest run of consecutive digits that counts as a sequence (123, 987, ١٢٣, １２３). */
export const DIGIT_RUN_LENGTH = 3;
/** Shortest run of consecutive letters that counts as a sequence (abcd, DCBA, wxyz). */
export const LETTER_RUN_LENGTH = 4;

/** US QWERTY rows and the diagonal columns (1qaz ... 0p;/), unshifted and lower case. */
const KEYBOARD_LINES = [
  '`1234567890-=',
  'qwertyuiop[]\\',
  "asdfghjkl;'",
  'zxcvbnm,./',
  '1qaz',
  '2wsx',
  '3edc',
  '4rfv',
  '5tgb',
  '6yhn',
  '7ujm',
  '8ik,',
  '9ol.',
  '0p;/',
];
const KEYBOARD_LINES_BOTH_WAYS = [...KEYBOARD_LINES, ...KEYBOARD_LINES.map((line) => [...line].reverse().join(''))];
const SHIFTED = '~!@#$%^&*()_+{}|:"<>?';
const UNSHIFTED = "`1234567890-=[]\\;',./";

/** Maps a character to the key that types it: 'Q' -> 'q', '!' -> '1'; other characters are returned unchanged. */
function keyOf(char: string): string {
  if (char >= 'A' && char <= 'Z') return char.toLowerCase();
  const shifted = SHIFTED.indexOf(char);
  return shifted === -1 ? char : (UNSHIFTED[shifted] ?? char);
}

function hasKeyboardRun(chars: readonly string[]): boolean {
  const keys = chars.map(keyOf);
  for (let i = 0; i + KEYBOARD_RUN_LENGTH <= keys.length; i++) {
    const window = keys.slice(i, i + KEYBOARD_RUN_LENGTH).join('');
    if (KEYBOARD_LINES_BOTH_WAYS.some((line) => line.includes(window))) return true;
  }
  return false;
}

const digitValues = new Map<string, number | undefined>();

/**
 * The value (0-9) of a decimal digit of any script (`\p{Nd}`: '7', '٧', '۷', '७', '７'), or undefined for any other
 * character. Unicode encodes every script's digits 0 to 9 in a contiguous block, so the value is the distance from
 * the start of the block (blocks that follow each other, such as the mathematical digits, repeat every 10).
 */
export function digitValue(char: string): number | undefined {
  if (digitValues.has(char)) return digitValues.get(char);
  let value: number | undefined;
  const code = char.codePointAt(0);
  if (code !== undefined && Array.from(char).length === 1 && /^\p{Nd}$/u.test(char)) {
    let zero = code;
    while (zero > 0 && /^\p{Nd}$/u.test(String.fromCodePoint(zero - 1))) zero--;
    value = (code - zero) % 10;
  }
  if (digitValues.size < 1_000) digitValues.set(char, value);
  return value;
}

/** Lower-case ASCII letter code (a = 0), or undefined. */
function letterCode(char: string): number | undefined {
  const lower = char.toLowerCase();
  return lower.length === 1 && lower >= 'a' && lower <= 'z' ? lower.charCodeAt(0) - 97 : undefined;
}

/** A run of `length` values that each differ from the one before by +1 (or each by -1). */
function hasRun(values: readonly (number | undefined)[], length: number): boolean {
  let run = 1;
  let step = 0;
  for (let i = 1; i < values.length; i++) {
    const previous = values[i - 1];
    const current = values[i];
    const delta = previous !== undefined && current !== undefined ? current - previous : 0;
    if (delta === 1 || delta === -1) {
      run = delta === step ? run + 1 : 2;
      step = delta;
      if (run >= length) return true;
    } else {
      run = 1;
      step = 0;
    }
  }
  return false;
}

/**
 * True when the password contains three consecutive ascending or descending digits of any script (123, 987,
 * ١٢٣, １２３), four consecutive letters in alphabetical order either way and in any case (abcd, DCBA, wXyZ), or four
 * keys in a row along a keyboard row or column, in either direction and with or without shift (qwer, asdf, 1qaz,
 * zaq1, !@#$). The password is compared after NFKC normalisation, so full-width letters and symbols count as theirs.
 */
export function hasSequence(password: string): boolean {
  const chars = Array.from(password.normalize('NFKC'));
  return (
    hasRun(chars.map(digitValue), DIGIT_RUN_LENGTH) ||
    hasRun(chars.map(letterCode), LETTER_RUN_LENGTH) ||
    hasKeyboardRun(chars)
  );
}

/** True when the same character appears three times in a row (aaa, 111, !!!). Case-sensitive. */
export function hasTripleRepeat(password: string): boolean {
  return /(.)\1\1/su.test(password);
}
