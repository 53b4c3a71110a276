const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** '2026-03-04T18:00:00Z' -> 'Mar 4, 2026, 10:00 AM' in the reader's time zone; an unreadable value as it came. */
export function formatDateTime(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : dateTime.format(date);
}
