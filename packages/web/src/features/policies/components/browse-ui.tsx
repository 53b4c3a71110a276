import { compareNumbers } from '@portal/shared';

/**
 * Small pieces shared by the policy browsing screens (table of contents, documents, navigator, archive, search):
 * dates, and the number order every list uses (loading and failure blocks are in page-parts.tsx).
 */

/** Number order (1.2 before 1.10), documents without a number last in title order. */
export function byNumber(a: { number: string | null; title: string }, b: { number: string | null; title: string }) {
  if (a.number && b.number) return compareNumbers(a.number, b.number) || a.title.localeCompare(b.title);
  if (a.number) return -1;
  if (b.number) return 1;
  return a.title.localeCompare(b.title, 'en', { numeric: true });
}

/** Whether every word of `query` appears in the document's number or title (case ignored). */
export function matchesText(doc: { number: string | null; title: string }, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = `${doc.number ?? ''} ${doc.title}`.toLowerCase();
  return words.every((word) => haystack.includes(word));
}

/** Departments in tree order (parents before their sub-departments, names A to Z), each with its depth. */
export function departmentOptions(
  departments: readonly { id: number; name: string; parent_id: number | null }[],
): { value: string; label: string; depth: number }[] {
  const ids = new Set(departments.map((department) => department.id));
  const byParent = new Map<number | null, (typeof departments)[number][]>();
  for (const department of departments) {
    // A parent that is not in the list puts the department at the top.
    const parent = department.parent_id !== null && ids.has(department.parent_id) ? department.parent_id : null;
    byParent.set(parent, [...(byParent.get(parent) ?? []), department]);
  }
  const options: { value: string; label: string; depth: number }[] = [];
  const seen = new Set<number>();
  const visit = (parent: number | null, depth: number) => {
    const children = [...(byParent.get(parent) ?? [])].sort((a, b) => a.name.localeCompare(b.name));
    for (const department of children) {
      if (seen.has(department.id)) continue;
      seen.add(department.id);
      options.push({ value: String(department.id), label: department.name, depth });
      visit(department.id, depth + 1);
    }
  };
  visit(null, 0);
  // Departments caught in a loop of parents (never expected) still appear, at the top level.
  for (const department of departments) {
    if (!seen.has(department.id)) options.push({ value: String(department.id), label: department.name, depth: 0 });
  }
  return options;
}

/** Departments for a Select: each under its parent (an en space of indent per level), labelled "Name (CODE)". */
export function departmentSelectData(
  departments: readonly { id: number; name: string; code: string; parent_id: number | null }[],
): { value: string; label: string }[] {
  const codes = new Map(departments.map((department) => [String(department.id), department.code]));
  return departmentOptions(departments).map(({ value, label, depth }) => ({
    value,
    label: `${'\u2002'.repeat(depth)}${label} (${codes.get(value)})`,
  }));
}
