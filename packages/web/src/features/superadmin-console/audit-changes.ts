import { auditChangesSchema } from '@portal/shared';

/** One changed field of an audit event, as the audit log shows it. */
export type ChangeRow =
  | { field: string; label: string; secret: false; from: unknown; to: unknown }
  | { field: string; label: string; secret: true };

/** Words that read better otherwise than capitalised: "N/A reason", "Public URL". */
const WORDS: Record<string, string> = {
  na: 'N/A',
  url: 'URL',
  html: 'HTML',
  ip: 'IP',
  csv: 'CSV',
  pdf: 'PDF',
  sha256: 'SHA-256',
  irr: 'IRR',
  spc: 'SPC',
};

/** One part of a field name in words: `first_name` "first name", `reviewIntervalMonths` "review interval months". */
function words(part: string): string[] {
  const split = part
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
  // `owner_id` is the owner, `member_ids` the members; a lone `id` stays.
  if (split.length > 1 && split.at(-1) === 'id') split.pop();
  if (split.length > 1 && split.at(-1) === 'ids') {
    split.pop();
    const last = split.pop()!;
    split.push(last.endsWith('s') ? last : `${last}s`);
  }
  return split.map((word) => WORDS[word] ?? (word === 'id' ? 'ID' : word));
}

/**
 * A field name in words: `first_name` "First name", `owner_id` "Owner", `pain_assessed.note` "Pain assessed: note",
 * `project_12` "Project 12". Section paths (`policies/library`) stay as they are.
 */
export function fieldLabel(field: string): string {
  if (field.includes('/')) return field;
  const text = field
    .split('.')
    .map((part) => words(part).join(' '))
    .filter(Boolean)
    .join(': ');
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : field;
}

/** A recorded value in words: empty, yes or no, a list, or the value itself. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return 'empty';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return value.toLocaleString('en-US');
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    if (value.length === 0) return 'none';
    if (value.every((item) => item === null || ['string', 'number', 'boolean'].includes(typeof item))) {
      return value.map((item) => valueText(item)).join(', ');
    }
  }
  return JSON.stringify(value);
}

/** Names a list item by its other keys: `{ user_id: 5 }` "User 5", `{ id: 9 }` "#9". */
function itemLabel(item: Record<string, unknown>): string {
  const rest = Object.entries(item).filter(([key]) => key !== 'from' && key !== 'to');
  if (rest.length === 0) return 'Item';
  return rest
    .map(([key, value]) => (key === 'id' ? `#${valueText(value)}` : `${fieldLabel(key)} ${valueText(value)}`))
    .join(', ');
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The changes an event records, or null when it has none in a known form: `data.changes` as `{ field: { from, to } }`
 * (a secret field as `{ changed: true }`), or as a list of `{ …, from, to }` (main roles, numbers) in older events.
 */
export function changeRows(data: Record<string, unknown>): ChangeRow[] | null {
  const changes = data.changes;
  const parsed = auditChangesSchema.safeParse(changes);
  if (parsed.success) {
    const rows = Object.entries(parsed.data).map(([field, change]): ChangeRow => {
      const label = fieldLabel(field);
      return 'changed' in change && !('from' in change)
        ? { field, label, secret: true }
        : { field, label, secret: false, from: (change as { from: unknown }).from, to: (change as { to: unknown }).to };
    });
    return rows.length > 0 ? rows : null;
  }
  if (Array.isArray(changes) && changes.length > 0) {
    const items = changes.filter(isRecord).filter((item) => 'from' in item && 'to' in item);
    if (items.length !== changes.length) return null;
    return items.map((item, index) => ({
      field: String(index),
      label: itemLabel(item),
      secret: false,
      from: item.from,
      to: item.to,
    }));
  }
  return null;
}
