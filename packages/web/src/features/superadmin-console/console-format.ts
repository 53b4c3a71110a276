const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });

function parse(value: string): Date | null {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** '2026-03-04T18:00:00Z' -> 'Mar 4, 2026, 10:00 AM' in the reader's time zone; an unreadable value as it came. */
export function formatDateTime(value: string): string {
  const date = parse(value);
  return date ? dateTime.format(date) : value;
}

/** '2026-03-04T18:00:00Z' -> 'March 4, 2026' (the reader's day). */
export function formatLongDay(value: string): string {
  const date = parse(value);
  return date ? longDate.format(date) : value;
}

/** '1 user', '3 users'. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

/** Who did something: a person's name, or 'System' for the portal itself (no actor). */
export function actorName(person: { name: string } | null): string {
  return person?.name ?? 'System';
}
