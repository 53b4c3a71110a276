import { expect } from 'vitest';
import type { z } from 'zod';

/**
 * For a route serialized without its response schema (lib/built-json.ts): the answer is exactly what the schema lets
 * through, with no field more (the schema would strip it) and none missing or of another type (it would refuse).
 */
export function expectExactly(schema: z.ZodType, answer: unknown): void {
  const parsed = schema.safeParse(answer);
  expect(parsed.error).toBeUndefined();
  expect(parsed.data).toStrictEqual(answer);
}
