import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { policyDepartments } from '../../db/schema/index.js';
import { projectAudit } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';

/** Pieces every policy service shares: audit, departments, date and text helpers. */

/** Records a policy change (`policy.<action>`); `at` is the app clock's time of the change. */
export const audit = projectAudit('policy');

/** The `{ id, name, code }` of a row's left-joined department (raw SQL columns department_*), or null without one. */
export function joinedDepartment(row: {
  department_id: number | null;
  department_name: string | null;
  department_code: string | null;
}) {
  return row.department_id === null
    ? null
    : { id: row.department_id, name: row.department_name ?? '', code: row.department_code ?? '' };
}

/** The department of this project, or a 400 on the field (another project's id reads as unknown). */
export async function departmentOf(
  db: DbOrTx,
  projectId: number,
  departmentId: number | null,
  field = 'department_id',
) {
  if (departmentId === null) return null;
  const [row] = await db
    .select()
    .from(policyDepartments)
    .where(and(eq(policyDepartments.projectId, projectId), eq(policyDepartments.id, departmentId)));
  if (!row) {
    throw new AppError('VALIDATION_FAILED', 'Choose a department of this project.', {
      [field]: ['Choose a department of this project.'],
    });
  }
  return row;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The words of an HTML text, for the search index (tags become spaces so words never run together). */
export function htmlToText(html: string): string {
  return (
    html
      .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
      .replace(/<[^>]*>/g, ' ')
      .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
        if (code.startsWith('#x') || code.startsWith('#X'))
          return String.fromCodePoint(Number.parseInt(code.slice(2), 16));
        if (code.startsWith('#')) return String.fromCodePoint(Number(code.slice(1)));
        return ENTITIES[code.toLowerCase()] ?? whole;
      })
      // Control characters out: search snippets use two of them to mark matches.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
      .replace(/[\u0000-\u001f\u007f]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

export const iso = (value: Date | string | null): string | null =>
  value === null ? null : value instanceof Date ? value.toISOString() : new Date(value).toISOString();

/** YYYY-MM-DD of `date` plus `months` (the next review date). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(y, m - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d, lastDay));
  return target.toISOString().slice(0, 10);
}

/** Postgres unique violation of a named constraint or index. */
export function isUniqueViolation(error: unknown, name: string): boolean {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const inner = e?.cause ?? e;
  return (inner?.code ?? e?.code) === '23505' && (inner?.constraint ?? e?.constraint) === name;
}
