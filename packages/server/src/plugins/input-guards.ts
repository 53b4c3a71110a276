import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors.js';

/** Deepest nesting of objects and arrays a JSON body may have; no request schema of the portal comes near it. */
export const JSON_MAX_DEPTH = 64;
export const JSON_TOO_DEEP = `The request body is nested too deeply (more than ${JSON_MAX_DEPTH} levels of objects and arrays).`;

/** Whether JSON text nests objects and arrays deeper than `max` (one pass, strings skipped; the text is not parsed). */
export function jsonTooDeep(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * application/json bodies: Fastify's own parser (bodyLimit, and `__proto__` / `constructor.prototype` keys refused),
 * behind a nesting-depth check, so a deeply nested body is refused with a clear 400 before anything walks it.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8'); // parseAs 'string': always a string
    if (jsonTooDeep(text, JSON_MAX_DEPTH)) {
      done(new AppError('VALIDATION_FAILED', JSON_TOO_DEEP, { body: [JSON_TOO_DEEP] }), undefined);
      return;
    }
    parse(request, text, done);
  });
}

export const NUL_REFUSED = 'Text may not contain the NUL character (U+0000).';
export const BROKEN_UNICODE = 'Text may not contain half of a character (an unpaired UTF-16 surrogate).';

// A high surrogate not followed by a low one, or a low one without a high one before it.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why PostgreSQL could not store this text, or null when it can. */
function unstorable(text: string): string | null {
  if (text.includes('\u0000')) return NUL_REFUSED;
  return LONE_SURROGATE.test(text) ? BROKEN_UNICODE : null;
}

/** The first string or key (its path a.b.0, '' for the value itself) PostgreSQL could not store, and why. */
function unstorableAt(value: unknown, depth = 0): { at: string; message: string } | null {
  if (typeof value === 'string') {
    const message = unstorable(value);
    return message ? { at: '', message } : null;
  }
  if (value === null || typeof value !== 'object' || depth > JSON_MAX_DEPTH || Buffer.isBuffer(value)) return null;
  for (const [key, item] of Object.entries(value)) {
    const message = unstorable(key);
    if (message) return { at: key.replaceAll('\u0000', '').replace(/[\uD800-\uDFFF]/g, ''), message };
    const inner = unstorableAt(item, depth + 1);
    if (inner) return { at: inner.at ? `${key}.${inner.at}` : key, message: inner.message };
  }
  return null;
}

/**
 * PostgreSQL text cannot hold U+0000 nor an unpaired surrogate (not valid UTF-8): a query string, path parameter or
 * JSON field with one would fail in the database (a 500; plain-text comments and template titles did). Such input is
 * refused up front with a 400 that names the field. No one types it.
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const [where, value] of [
      ['query', request.query],
      ['params', request.params],
      ['body', request.body],
    ] as const) {
      const bad = unstorableAt(value);
      if (bad) throw new AppError('VALIDATION_FAILED', bad.message, { [bad.at || where]: [bad.message] });
    }
  });
}
