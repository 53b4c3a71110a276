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

/** The refusal of an upload that should be CSV text but is not (judged by its bytes, never by its name). */
export const NOT_CSV_TEXT =
  'The file is not a CSV text file: its content looks like a program, an image, an archive or a spreadsheet. Save it as CSV (UTF-8) and upload that.';

/**
 * Whether the first `limit` bytes hold a byte no text file has: a control character other than tab, line feed,
 * form feed, carriage return and the DOS end-of-file mark, or DEL. Programs (ELF, PE), images, ZIP-based files
 * (.xlsx, .docx) and UTF-16 text all do.
 */
export function looksBinary(data: Uint8Array, limit = 64 * 1024): boolean {
  const end = Math.min(data.length, limit);
  for (let i = 0; i < end; i++) {
    const byte = data[i]!;
    if (
      byte === 0x7f ||
      (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d && byte !== 0x1a)
    )
      return true;
  }
  return false;
}
