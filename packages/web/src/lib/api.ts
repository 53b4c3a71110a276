import { errorMessage } from '@portal/shared';
import type { z } from 'zod';

const DEFAULT_ERROR = 'The request could not be completed. Please try again.';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A failed API call. `status` is 0 when the server could not be reached or its answer was not understood. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export interface ApiRequestInit<T> extends Omit<RequestInit, 'body'> {
  /** Sent as JSON unless it is already a body type fetch understands (FormData, Blob, string...). */
  body?: unknown;
  /** Parses the response; a response that does not match is an error, never silently trusted. */
  schema?: z.ZodType<T>;
  /** Message when the error body carries none (SPEC section 8 fallbacks such as 'Login failed'). */
  errorFallback?: string;
}

/** The one API client: same-origin cookies, JSON, and the anti-forgery header on state-changing requests. */
export async function apiFetch<T = unknown>(path: string, init: ApiRequestInit<T> = {}): Promise<T> {
  const { body, schema, errorFallback = DEFAULT_ERROR, headers: extraHeaders, ...rest } = init;
  const method = (rest.method ?? 'GET').toUpperCase();
  const headers = new Headers(extraHeaders);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');

  let requestBody: BodyInit | undefined;
  if (body !== undefined) {
    if (isBodyInit(body)) {
      requestBody = body;
    } else {
      requestBody = JSON.stringify(body);
      headers.set('Content-Type', 'application/json');
    }
  }
  if (!SAFE_METHODS.has(method)) {
    const token = readCookie('XSRF-TOKEN');
    if (token) headers.set('X-XSRF-TOKEN', token);
  }

  let response: Response;
  try {
    response = await fetch(path, { ...rest, method, headers, body: requestBody, credentials: 'include' });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, null, 'The server could not be reached. Please check your connection and try again.', {
      cause: error,
    });
  }

  const data = await readBody(response);
  if (!response.ok) throw new ApiError(response.status, data, errorMessage(data, errorFallback));
  if (!schema) return data as T;

  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new ApiError(0, data, 'The server sent an unexpected response. Please try again later.', {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get('Content-Type') ?? '';
  if (!type.includes('json')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isBodyInit(value: unknown): value is BodyInit {
  return (
    typeof value === 'string' ||
    value instanceof FormData ||
    value instanceof Blob ||
    value instanceof URLSearchParams ||
    value instanceof ArrayBuffer ||
    ArrayBuffer.isView(value) ||
    value instanceof ReadableStream
  );
}

/** The server sets XSRF-TOKEN URL-encoded; the header must carry the decoded value. */
export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0 || part.slice(0, separator).trim() !== name) continue;
    const raw = part.slice(separator + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return null;
}
