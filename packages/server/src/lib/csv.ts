/**
 * RFC 4180 field; a leading =, +, -, @, tab or carriage return is quoted with an apostrophe so spreadsheets never
 * run the cell as a formula (CSV injection).
 */
export function csvField(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole CSV document: the header, then one line per row, CRLF line ends. */
export function csvText(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return `${[header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;
}

/** A file name safe in a Content-Disposition header: letters, digits, dot, dash and underscore only. */
export const safeFileName = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/-{2,}/g, '-');
