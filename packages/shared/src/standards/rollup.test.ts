import { describe, expect, it } from 'vitest';
import { complianceScore, emptyCounts, rollUp, type StdCounts, treeCounts } from './rollup.js';

const counts = (partial: Partial<StdCounts>): StdCounts => ({ ...emptyCounts(), ...partial });

describe('standards roll-up (DOMAIN.md 3.5)', () => {
  it('is non-compliant when any applicable element is, whatever the others say', () => {
    expect(rollUp(counts({ compliant: 9, non_compliant: 1, partially_compliant: 2, not_assessed: 3 }))).toBe(
      'non_compliant',
    );
  });

  it('is partially compliant when none is non-compliant and one is partial', () => {
    expect(rollUp(counts({ compliant: 4, partially_compliant: 1, not_assessed: 1 }))).toBe('partially_compliant');
  });

  it('is compliant only when every applicable element is compliant (not applicable ones left out)', () => {
    expect(rollUp(counts({ compliant: 3, not_applicable: 2 }))).toBe('compliant');
    expect(rollUp(counts({ compliant: 3, not_assessed: 1 }))).toBe('incomplete');
  });

  it('is not assessed when nothing is, and not applicable when everything below is', () => {
    expect(rollUp(counts({ not_assessed: 5, not_applicable: 1 }))).toBe('not_assessed');
    expect(rollUp(counts({ not_applicable: 4 }))).toBe('not_applicable');
    expect(rollUp(emptyCounts())).toBe('not_applicable');
  });

  it('scores compliant over applicable assessed elements', () => {
    expect(complianceScore(counts({ compliant: 3, partially_compliant: 1, non_compliant: 0, not_assessed: 7 }))).toBe(
      0.75,
    );
    expect(complianceScore(counts({ not_assessed: 2, not_applicable: 1 }))).toBeNull();
  });

  it('sums the elements under every ancestor, in any order of the list', () => {
    const tree = treeCounts([
      { id: 3, parentId: 2, result: 'compliant' },
      { id: 4, parentId: 2, result: 'non_compliant' },
      { id: 5, parentId: 1, result: 'not_applicable' },
      { id: 2, parentId: 1, result: null },
      { id: 1, parentId: null, result: null },
    ]);
    expect(tree.get(1)).toEqual(counts({ compliant: 1, non_compliant: 1, not_applicable: 1 }));
    expect(tree.get(2)).toEqual(counts({ compliant: 1, non_compliant: 1 }));
    expect(rollUp(tree.get(1)!)).toBe('non_compliant');
    expect(rollUp(tree.get(5)!)).toBe('not_applicable');
  });
});
