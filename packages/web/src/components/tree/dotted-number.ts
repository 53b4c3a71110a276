/** Dotted numbers ("1", "1.2", "1.10"), compared part by part as numbers: 1 < 1.2 < 1.10 < 2. */
export function compareDotted(a: string, b: string): number {
  const left = a.split('.');
  const right = b.split('.');
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    if (left[i] === undefined) return -1;
    if (right[i] === undefined) return 1;
    const x = Number(left[i]);
    const y = Number(right[i]);
    if (Number.isFinite(x) && Number.isFinite(y)) {
      if (x !== y) return x - y;
    } else {
      const text = left[i]!.localeCompare(right[i]!, undefined, { numeric: true });
      if (text !== 0) return text;
    }
  }
  return 0;
}

export interface TreeItem {
  id: string | number;
  /** Dotted number, e.g. "1.2.10". */
  number: string;
  title: string;
  /** Where the item's view link goes. */
  href: string;
  /** What the row reads, when not "{number} {title}" (the Analytics tree nests by place but shows typed numbers). */
  label?: string;
}

export interface TreeNode<T extends TreeItem = TreeItem> {
  item: T;
  depth: number;
  children: TreeNode<T>[];
}

/**
 * Builds the tree: an item's parent is the item with the longest number that prefixes it ("1.2" for "1.2.3");
 * an item whose parents are missing hangs under its nearest present ancestor, or at the top.
 */
export function buildTree<T extends TreeItem>(items: readonly T[]): TreeNode<T>[] {
  const sorted = [...items].sort((a, b) => compareDotted(a.number, b.number));
  const byNumber = new Map<string, TreeNode<T>>();
  const roots: TreeNode<T>[] = [];
  for (const item of sorted) {
    const node: TreeNode<T> = { item, depth: 0, children: [] };
    let parent: TreeNode<T> | undefined;
    const parts = item.number.split('.');
    for (let length = parts.length - 1; length > 0 && !parent; length--) {
      parent = byNumber.get(parts.slice(0, length).join('.'));
    }
    if (parent) {
      node.depth = parent.depth + 1;
      parent.children.push(node);
    } else {
      roots.push(node);
    }
    if (!byNumber.has(item.number)) byNumber.set(item.number, node);
  }
  return roots;
}

/** Keys of the nodes above the item with `activeId` (empty when it is not in the tree). */
export function ancestorKeys<T extends TreeItem>(roots: readonly TreeNode<T>[], activeId: string | number): string[] {
  const path: string[] = [];
  const visit = (nodes: readonly TreeNode<T>[]): boolean => {
    for (const node of nodes) {
      if (String(node.item.id) === String(activeId)) return true;
      path.push(String(node.item.id));
      if (visit(node.children)) return true;
      path.pop();
    }
    return false;
  };
  return visit(roots) ? path : [];
}

/** Keys of every node that has children. */
export function parentKeys<T extends TreeItem>(roots: readonly TreeNode<T>[]): string[] {
  const keys: string[] = [];
  const visit = (nodes: readonly TreeNode<T>[]) => {
    for (const node of nodes) {
      if (node.children.length) {
        keys.push(String(node.item.id));
        visit(node.children);
      }
    }
  };
  visit(roots);
  return keys;
}
