/** Words the expression language reads as values, never as a column: a column key may not be one of them. */
const RESERVED = new Set(['true', 'false', 'null', 'this', 'undefined']);

/** A column key (COLUMN_KEY pattern: a-z first, then a-z 0-9 _, at most 63) made from a header. */
export function keyFromHeader(header: string, position: number): string {
  let key = header
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!key) key = `column_${position + 1}`;
  if (!/^[a-z]/.test(key)) key = `c_${key}`;
  if (RESERVED.has(key)) key = `${key}_value`;
  return key.slice(0, 63).replace(/_+$/, '');
}

/** `key`, or `key_2`, `key_3`... whichever is not taken yet (and takes it). */
export function uniqueKey(key: string, taken: Set<string>): string {
  let candidate = key;
  for (let n = 2; taken.has(candidate); n++) {
    const suffix = `_${n}`;
    candidate = `${key.slice(0, 63 - suffix.length)}${suffix}`;
  }
  taken.add(candidate);
  return candidate;
}
