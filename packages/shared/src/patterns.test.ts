import { describe, expect, it } from 'vitest';
import { DEFAULT_VALUE_PATTERN, isProjectId, isRecordId, isSlug } from './patterns.js';
import { slugSchema } from './schemas/admin.js';

describe('route patterns', () => {
  it('project ids are 1 to 10 digits', () => {
    expect(['1', '42', '1234567890'].every(isProjectId)).toBe(true);
    expect(['', '12345678901', '1a', '-1', ' 1', '1.0'].some(isProjectId)).toBe(false);
  });

  it('slugs are 1 to 50 letters, digits, _ and -', () => {
    expect(['a', 'demo-facility_1', 'x'.repeat(50)].every(isSlug)).toBe(true);
    expect(['', 'x'.repeat(51), 'a b', 'a/b', 'ü', 'a.b'].some(isSlug)).toBe(false);
  });

  it("a project's slug needs more than digits, which a path reads as the project's id", () => {
    expect(slugSchema.safeParse('2024-north').success).toBe(true);
    const digits = slugSchema.safeParse('2024');
    expect(digits.success).toBe(false);
    expect(digits.error?.issues[0]?.message).toMatch(/digits only read as a project id/);
  });

  it('record ids in a path are 1 to 10 digits', () => {
    expect(['7', '1234567890'].every(isRecordId)).toBe(true);
    expect(['', 'abc', '12345678901', '1.5', '-3'].some(isRecordId)).toBe(false);
  });

  it('default values are up to 200 word characters', () => {
    expect(DEFAULT_VALUE_PATTERN.test('a'.repeat(200))).toBe(true);
    expect(DEFAULT_VALUE_PATTERN.test('a'.repeat(201))).toBe(false);
    expect(DEFAULT_VALUE_PATTERN.test("a'b")).toBe(false);
  });
});
