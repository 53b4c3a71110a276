import {
  STD_COPYRIGHTED_CODES,
  STD_LIMITS,
  STD_NODE_TYPES,
  type StdNodeType,
  type StdTextPolicy,
} from '@portal/shared';
import { parse } from 'csv-parse/sync';
import { AppError } from '../../lib/errors.js';

/**
 * Reads a framework tree from CSV (docs/standards.md "Frameworks"): a header `ref_id,parent_ref_id,type,title` and,
 * only where the framework may store text, `text`. Parents come before their children. Every refusal is a 400 on
 * the field `csv` naming the rows. The licence rule lives here: a framework that keeps identifiers only (every
 * copyrighted publisher's) refuses a text column with anything in it, so official text never reaches the database.
 */

export interface FrameworkRow {
  refId: string;
  parentRefId: string | null;
  type: StdNodeType;
  title: string;
  text: string | null;
  /** Only editions read from the publisher's XML (ecfr/ecfr-xml.ts) carry these. */
  heading?: string | null;
  inForceFrom?: string | null;
  sourceNote?: string | null;
  optional?: boolean;
}

const TITLE_MAX = 300;
const REF_MAX = 60;
const TEXT_MAX = 8000;

export const LICENCE_REFUSAL =
  'This framework keeps identifiers and titles only: its publisher’s text is copyrighted. Remove the text column and write your facility’s own wording per element instead.';

function refuse(message: string): never {
  throw new AppError('VALIDATION_FAILED', message, { csv: [message] });
}

const rowList = (rows: number[]) =>
  rows.length > 5 ? `${rows.slice(0, 5).join(', ')} and ${rows.length - 5} more` : rows.join(', ');

/**
 * Whether a framework code belongs to a publisher whose text is copyrighted (they keep identifiers only). Codes may
 * use underscores, which a word boundary does not separate: `TJC_HAP` is read as `TJC-HAP`.
 */
export const isCopyrightedCode = (code: string) => STD_COPYRIGHTED_CODES.test(code.trim());

export function parseFrameworkCsv(csv: string, textPolicy: StdTextPolicy): FrameworkRow[] {
  let records: string[][];
  try {
    records = parse(csv.replace(/^\uFEFF/, ''), { relax_column_count: true, skip_empty_lines: true, trim: true });
  } catch {
    refuse('The file is not a readable CSV file.');
  }
  const [header, ...body] = records;
  if (!header) refuse('The file is empty.');
  const columns = header.map((name) =>
    name
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, '_'),
  );
  const at = (name: string) => columns.indexOf(name);
  const missing = ['ref_id', 'parent_ref_id', 'type', 'title'].filter((name) => at(name) < 0);
  if (missing.length > 0) {
    refuse(`The header needs the columns ref_id, parent_ref_id, type and title (missing: ${missing.join(', ')}).`);
  }
  if (body.length === 0) refuse('The file has a header but no rows.');
  if (body.length > STD_LIMITS.csvRows) refuse(`A framework has at most ${STD_LIMITS.csvRows} rows.`);
  const textAt = at('text');
  const cell = (record: string[], index: number) => (index < 0 ? '' : (record[index] ?? '').trim());

  if (textPolicy === 'identifiers_only' && textAt >= 0) {
    const withText = body.flatMap((record, i) => (cell(record, textAt) ? [i + 2] : []));
    if (withText.length > 0) refuse(`${LICENCE_REFUSAL} (Text on rows ${rowList(withText)}.)`);
  }

  const seen = new Set<string>();
  const problems: Record<string, number[]> = {};
  const note = (message: string, row: number) => {
    problems[message] ??= [];
    problems[message].push(row);
  };
  const rows: FrameworkRow[] = [];
  body.forEach((record, i) => {
    const row = i + 2;
    const refId = cell(record, at('ref_id'));
    const parent = cell(record, at('parent_ref_id'));
    const type = cell(record, at('type')).toLowerCase();
    const title = cell(record, at('title'));
    const text = cell(record, textAt);
    const problem = !refId
      ? 'A row has no ref_id'
      : refId.length > REF_MAX
        ? `A ref_id is longer than ${REF_MAX} characters`
        : seen.has(refId)
          ? 'A ref_id appears twice'
          : !(STD_NODE_TYPES as readonly string[]).includes(type)
            ? `A type is not one of ${STD_NODE_TYPES.join(', ')}`
            : !title
              ? 'A row has no title'
              : title.length > TITLE_MAX
                ? `A title is longer than ${TITLE_MAX} characters`
                : text.length > TEXT_MAX
                  ? `A text is longer than ${TEXT_MAX} characters`
                  : parent && !seen.has(parent)
                    ? 'A parent_ref_id is not on an earlier row'
                    : null;
    if (problem) {
      note(problem, row);
      return;
    }
    seen.add(refId);
    rows.push({
      refId,
      parentRefId: parent || null,
      type: type as StdNodeType,
      title,
      text: textPolicy === 'identifiers_only' || !text ? null : text,
    });
  });
  const messages = Object.entries(problems).map(([message, at]) => `${message} (rows ${rowList(at)}).`);
  if (messages.length > 0) throw new AppError('VALIDATION_FAILED', messages[0]!, { csv: messages });
  return rows;
}
