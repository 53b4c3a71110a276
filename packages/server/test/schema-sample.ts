import fc from 'fast-check';

type JsonSchema = Record<string, unknown>;

/**
 * One plausible value for a JSON schema (a route's body or query, from its zod schema): required properties only,
 * the first option of a choice, the least length and the least number. Good enough to pass most schemas, so the
 * access matrix reaches the handler's gate; refinements the JSON schema cannot say may still refuse it.
 */
export function sampleFromSchema(schema: JsonSchema | null | undefined, depth = 0): unknown {
  if (!schema || depth > 8) return undefined;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('default' in schema && schema.default !== undefined) return schema.default;
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = schema[key] as JsonSchema[] | undefined;
    if (options?.length) {
      const usable = options.find((o) => o.type !== 'null') ?? options[0];
      return sampleFromSchema(usable, depth + 1);
    }
  }
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = (schema.required ?? []) as string[];
      return Object.fromEntries(required.map((name) => [name, sampleFromSchema(props[name], depth + 1) ?? 'x']));
    }
    case 'array': {
      const count = Number(schema.minItems ?? 0);
      const item = schema.items as JsonSchema | undefined;
      return Array.from({ length: count }, () => sampleFromSchema(item, depth + 1));
    }
    case 'string':
      return sampleString(schema);
    case 'integer':
    case 'number':
      return Number(
        schema.minimum ?? (schema.exclusiveMinimum !== undefined ? Number(schema.exclusiveMinimum) + 1 : 1),
      );
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return undefined;
  }
}

function sampleString(schema: JsonSchema): string {
  const min = Number(schema.minLength ?? 1);
  switch (schema.format) {
    case 'email':
      return 'probe@example.test';
    case 'date':
      return '2026-01-15';
    case 'date-time':
      return '2026-01-15T10:00:00.000Z';
    case 'uuid':
      return '00000000-0000-4000-8000-000000000000';
    case 'uri':
    case 'url':
      return 'https://example.test/';
  }
  if (typeof schema.pattern === 'string') {
    try {
      const [value] = fc.sample(fc.stringMatching(new RegExp(schema.pattern)), { numRuns: 1, seed: 13 });
      const max = Number(schema.maxLength ?? Number.POSITIVE_INFINITY);
      if (value !== undefined && value.length >= min && value.length <= max) return value;
    } catch {
      // A pattern fast-check cannot generate: fall back to letters.
    }
  }
  return 'Probe'.padEnd(Math.max(min, 5), 'x').slice(0, Number(schema.maxLength ?? 1000));
}
