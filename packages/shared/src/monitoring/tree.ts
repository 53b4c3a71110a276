/**
 * Pure helpers of the monitoring page tree (decision record 008), shared by the server (previews, checks) and the
 * web (drag and drop, the grid): numbers are labels computed from the tree, never keys.
 */

export interface TreeItem {
  id: number;
  parent_id: number | null;
  position: number;
}

/** The children of each parent, in order: by position, then by id (as the server orders siblings). */
export function childrenByParent<T extends TreeItem>(pages: readonly T[]): Map<number | null, T[]> {
  const ids = new Set(pages.map((page) => page.id));
  const children = new Map<number | null, T[]>();
  for (const page of pages) {
    // A page whose parent is not in the list is left out with its branch (as renumberPages does).
    const parent =
      page.parent_id !== null && ids.has(page.parent_id) ? page.parent_id : page.parent_id === null ? null : undefined;
    if (parent === undefined) continue;
    const list = children.get(parent) ?? [];
    list.push(page);
    children.set(parent, list);
  }
  for (const list of children.values()) list.sort((a, b) => a.position - b.position || a.id - b.id);
  return children;
}

/**
 * The number automatic numbering gives every page: "1", "1.2", "1.2.3", from the order of siblings (position,
 * then id). Pages whose parent is not in the list are not numbered.
 */
export function numberTree(pages: readonly TreeItem[]): Map<number, string> {
  const children = childrenByParent(pages);
  const numbers = new Map<number, string>();
  const walk = (parentId: number | null, prefix: string) => {
    for (const [index, page] of (children.get(parentId) ?? []).entries()) {
      const number = `${prefix}${index + 1}`;
      numbers.set(page.id, number);
      walk(page.id, `${number}.`);
    }
  };
  walk(null, '');
  return numbers;
}

/** The ids of a page and every page below it. */
export function branchOf(pages: readonly TreeItem[], pageId: number): Set<number> {
  const branch = new Set([pageId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const page of pages) {
      if (page.parent_id !== null && branch.has(page.parent_id) && !branch.has(page.id)) {
        branch.add(page.id);
        grew = true;
      }
    }
  }
  return branch;
}

/** How many levels a branch spans below its top page (0 for a page without sub-pages). */
export function branchHeight(pages: readonly TreeItem[], pageId: number): number {
  const children = childrenByParent(pages);
  const height = (id: number): number => {
    let deepest = 0;
    for (const child of children.get(id) ?? []) deepest = Math.max(deepest, 1 + height(child.id));
    return deepest;
  };
  return height(pageId);
}

/** Whether following parents from `pageId` ever comes back to it (a cycle), or runs longer than the list. */
export function hasCycle(parents: ReadonlyMap<number, number | null>, pageId: number): boolean {
  let current = parents.get(pageId) ?? null;
  for (let steps = 0; current !== null; steps++) {
    if (current === pageId || steps > parents.size) return true;
    current = parents.get(current) ?? null;
  }
  return false;
}
