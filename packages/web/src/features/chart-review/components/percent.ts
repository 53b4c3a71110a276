/**
 * Percentage fields. Shares are stored from 0 to 1 and typed as percentages; they are shown with the shared
 * formatPercent (@portal/shared), a configured value (a target, a threshold) with `{ digits: 2 }`. Rounding to 4 decimals of a percent hides the binary
 * noise of the conversion (0.07 * 100 is 7.000000000000001) without losing anything a person types.
 */
export function shareToPercent(share: number): number {
  return Math.round(share * 1_000_000) / 10_000;
}

export function percentToShare(percent: number): number {
  return Math.round(percent * 10_000) / 1_000_000;
}

/** NumberInput gives a number, or a string while empty or half typed ("-", "1."). */
export function numberOf(value: number | string): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  const text = value.trim();
  if (text === '') return undefined;
  const number = Number(text);
  return Number.isFinite(number) ? number : undefined;
}

/**
 * The message for a percentage field, or null when it is valid: empty and out-of-range values are named in
 * percent, the unit the person typed (the shared schema speaks of shares from 0 to 1).
 */
export function percentError(value: number | string, what: string): string | null {
  const number = numberOf(value);
  if (number === undefined) return `Enter the ${what} as a percentage.`;
  if (number < 0 || number > 100) return `The ${what} is from 0% to 100%.`;
  return null;
}
