import { describe, expect, it } from 'vitest';
import { compareNumbers } from '../policy/numbering.js';
import { branchHeight, branchOf, hasCycle, numberTree } from './tree.js';

const page = (id: number, parent_id: number | null, position: number) => ({ id, parent_id, position });

describe('numberTree', () => {
  it('numbers the tree from the order of siblings', () => {
    const numbers = numberTree([page(1, null, 0), page(2, null, 1), page(3, 1, 0), page(4, 1, 1), page(5, 4, 0)]);
    expect(Object.fromEntries(numbers)).toEqual({ 1: '1', 2: '2', 3: '1.1', 4: '1.2', 5: '1.2.1' });
  });

  it('orders siblings by position, then id, whatever the list order and gaps', () => {
    const numbers = numberTree([page(9, null, 7), page(3, null, 2), page(5, null, 2), page(4, 3, 40), page(2, 3, 5)]);
    expect(Object.fromEntries(numbers)).toEqual({ 3: '1', 5: '2', 9: '3', 2: '1.1', 4: '1.2' });
  });

  it('gives a tenth child 1.10, which sorts after 1.9', () => {
    const pages = [page(100, null, 0), ...Array.from({ length: 10 }, (_, i) => page(i + 1, 100, i))];
    const numbers = numberTree(pages);
    expect(numbers.get(9)).toBe('1.9');
    expect(numbers.get(10)).toBe('1.10');
    const sorted = [...numbers.values()].sort(compareNumbers);
    expect(sorted.indexOf('1.9')).toBeLessThan(sorted.indexOf('1.10'));
    expect(sorted.at(-1)).toBe('1.10');
  });

  it('leaves out a branch whose parent is missing', () => {
    const numbers = numberTree([page(1, null, 0), page(2, 77, 0), page(3, 2, 0)]);
    expect(Object.fromEntries(numbers)).toEqual({ 1: '1' });
  });

  it('answers an empty map for no pages', () => {
    expect(numberTree([]).size).toBe(0);
  });
});

describe('branches', () => {
  const pages = [page(1, null, 0), page(2, 1, 0), page(3, 2, 0), page(4, null, 1)];
  it('finds a branch and its height', () => {
    expect([...branchOf(pages, 1)].sort()).toEqual([1, 2, 3]);
    expect(branchHeight(pages, 1)).toBe(2);
    expect(branchHeight(pages, 4)).toBe(0);
  });
  it('sees cycles', () => {
    expect(
      hasCycle(
        new Map([
          [1, 2],
          [2, 1],
        ]),
        1,
      ),
    ).toBe(true);
    expect(
      hasCycle(
        new Map([
          [1, null],
          [2, 1],
        ]),
        2,
      ),
    ).toBe(false);
  });
});
