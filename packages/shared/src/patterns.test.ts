import { describe, expect, it } from 'vitest';
import { DEFAULT_VALUE_PATTERN, isProjectId, isSlug } from './patterns.js';

describe('route patterns', () => {
  it('project ids are 1 to 10 digits', () => {
    expect(['1', '42', '1234567890'].every(isProjectId)).toBe(true);
    expect(['', '12345678901', '1a', '-1', ' 1', '1.0'].some(isProjectId)).toBe(false);
  });

  it('slugs are 1 to 50 letters, digits, _ and -', () => {
    expect(['a', 'demo-facility_1', 'x'.repeat(50)].every(isSlug)).toBe(true);
    expect(['', 'x'.repeat(51), 'a b', 'a/b', 'ü', 'a.b'].some(isSlug)).toBe(false);
  });

  it('default values are up to 200 word characters', () => {
    expect(DEFAULT_VALUE_PATTERN.test('a'.repeat(200))).toBe(true);
    expect(DEFAULT_VALUE_PATTERN.test('a'.repeat(201))).toBe(false);
    expect(DEFAULT_VALUE_PATTERN.test("a'b")).toBe(false);
  });
});
