/**
 * Single-character substitutions a guesser tries (l33t): 'P@ssw0rd' is 'password'. Taken from the zxcvbn-ts table,
 * without its multi-character entries ('|-|', '^^') and without the rare '/' and '>' for v.
 */
export const L33T_SUBSTITUTIONS: Readonly<Record<string, string>> = {
  '4': 'a',
  '@': 'a',
  '8': 'b',
  '(': 'c',
  '{': 'c',
  '[': 'c',
  '<': 'ck',
  '6': 'dg',
  '3': 'e',
  '#': 'fh',
  '9': 'gq',
  '&': 'g',
  '1': 'il',
  '!': 'il',
  '|': 'il',
  '7': 'lt',
  '0': 'o',
  $: 's',
  '5': 's',
  '+': 't',
  '%': 'x',
  '2': 'z',
};

/** The letters a character may stand for: itself in lower case for a letter, its l33t letters, or '' for neither. */
export function lettersFor(char: string): string {
  if (/^\p{L}$/u.test(char)) return char.toLowerCase();
  return L33T_SUBSTITUTIONS[char] ?? '';
}
