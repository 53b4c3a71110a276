import type { StdResult } from './vocabulary.js';

/**
 * Roll-ups of a standards tree (DOMAIN.md 3.5). Only assessable elements (leaves) carry a result; every node above
 * them reads the counts of the elements below it:
 * - non-compliant when any applicable element is;
 * - else partially compliant when any is;
 * - else compliant when every applicable element is compliant;
 * - else not assessed when none is assessed, and incomplete when some are;
 * - not applicable when every element below is.
 * The score is compliant over applicable assessed elements (null when none is assessed).
 */
export type StdRollup = StdResult | 'incomplete';

export interface StdCounts {
  compliant: number;
  partially_compliant: number;
  non_compliant: number;
  not_applicable: number;
  not_assessed: number;
}

export const emptyCounts = (): StdCounts => ({
  compliant: 0,
  partially_compliant: 0,
  non_compliant: 0,
  not_applicable: 0,
  not_assessed: 0,
});

export function addCounts(into: StdCounts, from: StdCounts): StdCounts {
  into.compliant += from.compliant;
  into.partially_compliant += from.partially_compliant;
  into.non_compliant += from.non_compliant;
  into.not_applicable += from.not_applicable;
  into.not_assessed += from.not_assessed;
  return into;
}

export function countOf(result: StdResult): StdCounts {
  const counts = emptyCounts();
  counts[result] += 1;
  return counts;
}

export function rollUp(counts: StdCounts): StdRollup {
  const assessed = counts.compliant + counts.partially_compliant + counts.non_compliant;
  if (counts.non_compliant > 0) return 'non_compliant';
  if (counts.partially_compliant > 0) return 'partially_compliant';
  if (counts.not_assessed === 0) return assessed > 0 ? 'compliant' : 'not_applicable';
  return assessed > 0 ? 'incomplete' : 'not_assessed';
}

/** Compliant over applicable assessed elements, 0 to 1; null when nothing applicable is assessed. */
export function complianceScore(counts: StdCounts): number | null {
  const assessed = counts.compliant + counts.partially_compliant + counts.non_compliant;
  return assessed === 0 ? null : counts.compliant / assessed;
}

export interface RollupNode {
  id: number;
  parentId: number | null;
  /** The element's own result; null for a node that is not assessed itself (a chapter, a condition). */
  result: StdResult | null;
}

/**
 * Counts per node of a flat tree: each node sums its own result (when it has one) and its descendants'. Parents
 * may come after their children in the list; a node whose parent is missing is a root.
 */
export function treeCounts(nodes: readonly RollupNode[]): Map<number, StdCounts> {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const counts = new Map<number, StdCounts>(nodes.map((node) => [node.id, emptyCounts()]));
  for (const node of nodes) {
    if (node.result === null) continue;
    const own = countOf(node.result);
    let at: RollupNode | undefined = node;
    const seen = new Set<number>();
    while (at && !seen.has(at.id)) {
      seen.add(at.id);
      addCounts(counts.get(at.id)!, own);
      at = at.parentId === null ? undefined : byId.get(at.parentId);
    }
  }
  return counts;
}
