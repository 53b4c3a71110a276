import type { StdRelationship } from '@portal/shared';
import { normalise } from './ecfr-xml.js';

/**
 * The crosswalk from one edition of a regulation to the next, derived from the two texts (docs/standards.md
 * "Editions"): what kept its words keeps its link wherever its identifier went (482.21(e) -> (f)), a paragraph split
 * into subparagraphs maps to each of them, and a paragraph reworded in place maps to its successor as overlapping.
 * A paragraph with nothing like it in the other edition maps to nothing: new, or gone.
 */

export interface EditionNode {
  id: number;
  refId: string;
  heading: string | null;
  title: string;
  text: string | null;
}

export interface DerivedMapping {
  sourceNodeId: number;
  targetNodeId: number;
  relationship: StdRelationship;
  rationale: string;
}

/** Compared as a reader compares: case, spacing, quotes and dashes aside. */
const canon = (text: string | null) =>
  normalise(text ?? '')
    .toLowerCase()
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/\s*[—–]\s*/g, '—')
    .replace(/\s*-\s*$/, '—');

const words = (text: string) => new Set(text.split(/[^a-z0-9]+/).filter((word) => word.length > 2));

function similarity(a: string, b: string): number {
  const left = words(a);
  const right = words(b);
  if (left.size === 0 || right.size === 0) return 0;
  let shared = 0;
  for (const word of left) if (right.has(word)) shared++;
  return shared / (left.size + right.size - shared);
}

/** "§482.21(e)(1)" -> "§482.21" */
const sectionOf = (refId: string) => refId.replace(/\(.*$/, '');

const label = (text: string | null, title: string) => canon(text) || canon(title);

export function deriveCrosswalk(from: readonly EditionNode[], to: readonly EditionNode[]): DerivedMapping[] {
  const mappings: DerivedMapping[] = [];
  const mappedFrom = new Set<number>();
  const mappedTo = new Set<number>();
  const add = (source: EditionNode, target: EditionNode, relationship: StdRelationship, rationale: string) => {
    mappings.push({ sourceNodeId: source.id, targetNodeId: target.id, relationship, rationale });
    mappedFrom.add(source.id);
    mappedTo.add(target.id);
  };
  const oldByRef = new Map(from.map((node) => [node.refId, node]));
  const oldByText = new Map<string, EditionNode[]>();
  for (const node of from) {
    const key = `${sectionOf(node.refId)}|${canon(node.text)}`;
    if (canon(node.text).length >= 20) oldByText.set(key, [...(oldByText.get(key) ?? []), node]);
  }

  // 1. The same words: under the same identifier, or moved within its section.
  for (const node of to) {
    const same = oldByRef.get(node.refId);
    if (same && label(same.text, same.title) === label(node.text, node.title)) {
      add(same, node, 'equal', 'Same identifier, same text.');
      continue;
    }
    if (canon(node.text).length < 20) continue;
    const moved = (oldByText.get(`${sectionOf(node.refId)}|${canon(node.text)}`) ?? []).find(
      (old) => !mappedFrom.has(old.id),
    );
    if (moved) add(moved, node, 'equal', `Same text, renumbered from ${moved.refId} to ${node.refId}.`);
  }
  // 2. A standard or condition kept its heading where its identifier moved (its text may have changed).
  for (const node of to) {
    if (mappedTo.has(node.id) || !node.heading) continue;
    const moved = from.find(
      (old) =>
        !mappedFrom.has(old.id) &&
        sectionOf(old.refId) === sectionOf(node.refId) &&
        canon(old.title) === canon(node.title) &&
        old.refId.split('(').length === node.refId.split('(').length,
    );
    if (moved) {
      add(
        moved,
        node,
        moved.refId === node.refId ? 'intersect' : 'equal',
        moved.refId === node.refId
          ? 'Same heading, wording changed.'
          : `Renumbered from ${moved.refId} to ${node.refId}.`,
      );
    }
  }
  // 3. A paragraph the old edition held whole and the new one splits: the old contains each new part.
  for (const node of to) {
    const text = canon(node.text);
    if (mappedTo.has(node.id) || text.length < 25) continue;
    const whole = from.find(
      (old) =>
        sectionOf(old.refId) === sectionOf(node.refId) && canon(old.text).includes(text) && old.refId !== node.refId,
    );
    if (whole) add(whole, node, 'superset', `${whole.refId} held this text; the edition numbers it ${node.refId}.`);
  }
  // 3b. An old leaf whose new namesake has subparagraphs: the old paragraph contains each of them.
  const oldLeaves = new Map(from.map((node) => [node.refId, node]));
  for (const node of to) {
    if (mappedTo.has(node.id)) continue;
    for (let ref = node.refId.replace(/\([^()]*\)$/, ''); ref.includes('('); ref = ref.replace(/\([^()]*\)$/, '')) {
      const whole = oldLeaves.get(ref);
      if (whole && !from.some((old) => old.refId.startsWith(`${ref}(`))) {
        add(whole, node, 'superset', `${whole.refId} is now divided into subparagraphs, ${node.refId} among them.`);
        break;
      }
    }
  }
  // 4. Reworded in place: the same identifier with words mostly shared.
  for (const node of to) {
    if (mappedTo.has(node.id)) continue;
    const same = oldByRef.get(node.refId);
    if (!same || mappedFrom.has(same.id)) continue;
    if (similarity(label(same.text, same.title), label(node.text, node.title)) >= 0.3) {
      add(same, node, 'intersect', 'Same identifier, wording changed.');
    }
  }
  // 5. Reworded and moved: the closest text in the section, when close enough.
  for (const node of to) {
    if (mappedTo.has(node.id) || canon(node.text).length < 25) continue;
    let best: { old: EditionNode; score: number } | null = null;
    for (const old of from) {
      if (mappedFrom.has(old.id) || sectionOf(old.refId) !== sectionOf(node.refId)) continue;
      const score = similarity(canon(old.text), canon(node.text));
      if (score >= 0.5 && (!best || score > best.score)) best = { old, score };
    }
    if (best) add(best.old, node, 'intersect', `Closest wording in ${sectionOf(node.refId)}: ${best.old.refId}.`);
  }
  return mappings;
}
