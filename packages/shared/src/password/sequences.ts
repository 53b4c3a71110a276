/**
 * Rule checks that need no dictionary: sequences, keyboard patterns and repeated characters. They give the same
 * answer before and after the zxcvbn dictionaries are loaded.
 */

/** Shortest run along a keyboard row or column that counts as a keyboard pattern (qwer, asdf, 1qaz, !@#$). */
export const KEYBOARD_RUN_LENGTH = 4;
/** Shortest run of consecutive letters or digits that counts as a sequence (abc, cba, 123, 987). */
export const ALPHANUMERIC_RUN_LENGTH = 3;

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

/** Letter (case-insensitive) or digit code, or undefined for any other character. */
function alphanumericCode(char: string): { kind: 'letter' | 'digit'; code: number } | undefined {
  if (/^[A-Za-z]$/.test(char)) return { kind: 'letter', code: char.toLowerCase().charCodeAt(0) };
  if (/^[0-9]$/.test(char)) return { kind: 'digit', code: char.charCodeAt(0) };
  return undefined;
}

function hasAlphanumericRun(chars: readonly string[]): boolean {
  let run = 1;
  let step = 0;
  for (let i = 1; i < chars.length; i++) {
    const previous = alphanumericCode(chars[i - 1] ?? '');
    const current = alphanumericCode(chars[i] ?? '');
    const delta = previous && current && previous.kind === current.kind ? current.code - previous.code : 0;
    if (delta === 1 || delta === -1) {
      run = delta === step ? run + 1 : 2;
      step = delta;
      if (run >= ALPHANUMERIC_RUN_LENGTH) return true;
    } else {
      run = 1;
      step = 0;
    }
  }
  return false;
}

/**
 * True when the password contains three consecutive ascending or descending letters or digits (abc, CBA, 123, 987)
 * or four keys in a row along a keyboard row or column, in either direction and with or without shift (qwer, asdf,
 * 1qaz, zaq1, !@#$).
 */
export function hasSequence(password: string): boolean {
  const chars = Array.from(password);
  return hasAlphanumericRun(chars) || hasKeyboardRun(chars);
}

/** True when the same character appears three times in a row (aaa, 111, !!!). Case-sensitive. */
export function hasTripleRepeat(password: string): boolean {
  return /(.)\1\1/su.test(password);
}
