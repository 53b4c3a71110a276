import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validationMessage } from './validation-messages.js';

const messageOf = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error?.issues[0]?.message;

describe('validation messages in the portal words', () => {
  beforeAll(() => {
    z.config({ customError: validationMessage });
  });

  it.each([
    ['a 10,000-character email', z.string().trim().max(254), 'x'.repeat(10_000), 'Enter at most 254 characters.'],
    ['an empty required text', z.string().min(1), '', 'This field is required.'],
    ['a short password', z.string().min(8), 'abc', 'Enter at least 8 characters.'],
    ['a code of the wrong length', z.string().length(6), '123', 'Enter exactly 6 characters.'],
    ['a missing field', z.object({ name: z.string() }), {}, 'This field is required.'],
    ['a word where a number goes', z.number(), 'abc', 'Enter a number.'],
    ['a fraction where a whole number goes', z.number().int(), 1.5, 'Enter a whole number.'],
    ['a number too high', z.number().max(100), 101, 'Enter 100 or less.'],
    ['a number too low', z.number().min(1), 0, 'Enter 1 or more.'],
    ['zero where a positive number goes', z.number().positive(), 0, 'Enter a number above 0.'],
    ['a bad email', z.email(), 'member@', 'Enter a valid email address.'],
    ['a bad web address', z.url(), 'not an address', 'Enter a valid web address, such as https://example.org.'],
    ['a bad date', z.iso.date(), '2026-13-45', 'Enter a valid date.'],
    ['a value outside a list', z.enum(['draft', 'published']), 'archived', 'Choose one of the options.'],
    ['an empty choice', z.array(z.number()).min(1), [], 'Choose at least one.'],
    ['too many choices', z.array(z.number()).max(3), [1, 2, 3, 4], 'Choose at most 3 items.'],
    [
      'a field the form does not have',
      z.strictObject({ name: z.string() }),
      { name: 'A', role: 'x' },
      'This request has fields the form does not have.',
    ],
    ['a pattern', z.string().regex(/^\d+$/), 'abc', 'This value is not in the expected format.'],
    ['a multiple', z.number().multipleOf(5), 7, 'Enter a multiple of 5.'],
  ])('%s', (_case, schema, value, expected) => {
    expect(messageOf(schema, value)).toBe(expected);
  });

  it('keeps the message a schema gives itself', () => {
    expect(messageOf(z.string().min(1, 'Enter your name.'), '')).toBe('Enter your name.');
  });

  it('never passes the library wording or a code on', () => {
    const schemas: [z.ZodType, unknown][] = [
      [
        z.object({ a: z.string(), b: z.number(), c: z.boolean(), d: z.array(z.string()) }),
        { a: 1, b: 'x', c: 'y', d: 'z' },
      ],
      [z.union([z.string(), z.number()]), true],
      [z.literal('yes'), 'no'],
      [z.record(z.string(), z.number()), { a: 'b' }],
      [z.date(), 'yesterday'],
      [z.bigint().max(10n), 11n],
      [z.tuple([z.string()]), [1, 2]],
    ];
    for (const [schema, value] of schemas) {
      const issues = schema.safeParse(value).error?.issues ?? [];
      expect(issues.length).toBeGreaterThan(0);
      for (const issue of issues) {
        expect(issue.message).not.toMatch(/expected|received|Invalid|Too (big|small)|[<>]=?\d|_/);
        expect(issue.message).toMatch(/^[A-Z].*\.$/);
      }
    }
  });
});
