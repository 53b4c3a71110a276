import { describe, expect, it } from 'vitest';
import { DEFAULT_SCHEME, departmentChapter, newPolicyParent, nextPolicyNumber } from './numbering.js';

describe('nextPolicyNumber', () => {
  const used = ['1', '1.1', '2', '2.1', '2.2', '2.2.1', '3', '3.1', '3.2', '4', '5'];

  it("takes the next free number in the department's chapter", () => {
    expect(nextPolicyNumber(DEFAULT_SCHEME, used, { code: 'PS', numbers: ['3', '3.1', '3.2'] })).toBe('3.3');
    // A chapter without its heading policy, and numbers deeper than one level, still point to it.
    expect(nextPolicyNumber(DEFAULT_SCHEME, used, { code: 'NUR', numbers: ['2.1', '2.2.1'] })).toBe('2.3');
    // Other departments' policies in the chapter are counted: no number is given twice.
    expect(nextPolicyNumber(DEFAULT_SCHEME, [...used, '3.7'], { code: 'PS', numbers: ['3.1'] })).toBe('3.8');
  });

  it('takes the next top-level number without a department, or for a department with no numbered policy yet', () => {
    expect(nextPolicyNumber(DEFAULT_SCHEME, used, null)).toBe('6');
    expect(nextPolicyNumber(DEFAULT_SCHEME, used, { code: 'PHA', numbers: [] })).toBe('6');
    expect(nextPolicyNumber({ ...DEFAULT_SCHEME, levels: 1 }, used, { code: 'PS', numbers: ['3'] })).toBe('6');
  });

  it("numbers after the department's prefix when the scheme has prefixes", () => {
    const scheme = { ...DEFAULT_SCHEME, department_prefixes: true };
    expect(nextPolicyNumber(scheme, ['NUR-1', 'NUR-2', '4'], { code: 'NUR', numbers: ['NUR-1', 'NUR-2'] })).toBe(
      'NUR-3',
    );
  });
});

describe('departmentChapter', () => {
  it('is the top level most of the department’s policies sit under, the lowest on a tie', () => {
    expect(departmentChapter(['3', '3.1', '3.2', '5.1'])).toBe('3');
    expect(departmentChapter(['6', '7'])).toBe('6');
    expect(departmentChapter([])).toBeNull();
    expect(departmentChapter(['NUR-1'])).toBeNull();
  });
});

describe('newPolicyParent', () => {
  it("puts a new policy after its department's prefix, else in its chapter, else at the top level", () => {
    const prefixes = { ...DEFAULT_SCHEME, department_prefixes: true };
    expect(newPolicyParent(prefixes, { code: 'NUR', chapter: '3' })).toBe(`NUR${prefixes.prefix_separator}`);
    expect(newPolicyParent(DEFAULT_SCHEME, { code: 'NUR', chapter: '3' })).toBe('3');
    expect(newPolicyParent(DEFAULT_SCHEME, { code: 'NUR', chapter: null })).toBe('');
    expect(newPolicyParent({ ...DEFAULT_SCHEME, levels: 1 }, { code: 'NUR', chapter: '3' })).toBe('');
    expect(newPolicyParent(DEFAULT_SCHEME, null)).toBe('');
  });
});
