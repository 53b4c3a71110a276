import { errorMessage, MFA_GRACE_HEADER } from '@portal/shared';
import type { z } from 'zod';

const DEFAULT_ERROR = 'The request could not be completed. Please try again.';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const XSRF_COOKIE = 'XSRF-TOKEN';
export const CSRF_COOKIE_PATH = '/sanctum/csrf-cookie';

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

/** Detail of the `mfa-warning` browser event (SPEC section 7 "MFA"). */
export interface MfaWarningDetail {
  message: string;
  days_remaining: number;
}

/**
 * The one API client: same-origin cookies, JSON, and the anti-forgery header on state-changing requests.
 * Before the first state-changing request without an XSRF-TOKEN cookie it asks the server for one; when the
 * server answers 419 (token missing or stale, e.g. after the session was rotated) it fetches a fresh token and
 * sends the request once more.
 */
export async function apiFetch<T = unknown>(path: string, init: ApiRequestInit<T> = {}): Promise<T> {
  const { body, schema, errorFallback = DEFAULT_ERROR, headers: extraHeaders, ...rest } = init;
  const method = (rest.method ?? 'GET').toUpperCase();
  const safe = SAFE_METHODS.has(method);
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

  const send = async (): Promise<Response> => {
    // A copy per attempt: the retry after a 419 carries the new token, the first attempt keeps its own.
    const attemptHeaders = new Headers(headers);
    if (!safe) {
      const token = readCookie(XSRF_COOKIE);
      if (token) attemptHeaders.set('X-XSRF-TOKEN', token);
    }
    try {
      return await fetch(path, { ...rest, method, headers: attemptHeaders, body: requestBody, credentials: 'include' });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError(0, null, 'The server could not be reached. Please check your connection and try again.', {
        cause: error,
      });
    }
  };

  if (!safe && !readCookie(XSRF_COOKIE)) await refreshCsrfCookie();
  let response = await send();
  if (response.status === 419 && !safe && !(requestBody instanceof ReadableStream)) {
    await response.body?.cancel().catch(() => {});
    await refreshCsrfCookie();
    response = await send();
  }

  announceMfaGrace(response);
  const data = await readBody(response);
  if (!response.ok) {
    if (response.status === 403 && isMfaRequired(data)) {
      window.dispatchEvent(new CustomEvent('mfa-required', { detail: data }));
    }
    throw new ApiError(response.status, data, errorMessage(data, errorFallback));
  }
  if (!schema) return data as T;

  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new ApiError(0, data, 'The server sent an unexpected response. Please try again later.', {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

/**
 * A file the server builds on request (a survey binder), fetched rather than linked so that the screen can show that
 * it is being built and say why it failed, then saved under the server's file name (`fallbackName` without one).
 */
export async function apiDownload(path: string, fallbackName: string, errorFallback = DEFAULT_ERROR): Promise<void> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: 'include' });
  } catch (error) {
    throw new ApiError(0, null, 'The server could not be reached. Please check your connection and try again.', {
      cause: error,
    });
  }
  if (!response.ok) {
    const data = await readBody(response);
    throw new ApiError(response.status, data, errorMessage(data, errorFallback));
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? fallbackName;
  document.body.append(link);
  link.click();
  link.remove();
  // Chromium reads the file after the click returns: let it go a minute later.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * The text a screen shows for a failed call: the server's message (already reduced by SPEC section 8's rule), or
 * `fallback` when the server sent none or could not be reached ('Login failed', 'Something went wrong.').
 */
export function messageFor(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.status !== 0 ? error.message : fallback;
}

let pendingCsrf: Promise<void> | null = null;

/**
 * GET /sanctum/csrf-cookie, shared by concurrent callers. A failure is swallowed: the request that needed the
 * token then fails on its own and reports its own error.
 */
export function refreshCsrfCookie(): Promise<void> {
  pendingCsrf ??= fetch(CSRF_COOKIE_PATH, { credentials: 'include', headers: { Accept: 'application/json' } })
    .then(
      (response) => response.body?.cancel().catch(() => {}),
      () => {},
    )
    .finally(() => {
      pendingCsrf = null;
    });
  return pendingCsrf;
}

function announceMfaGrace(response: Response): void {
  const raw = response.headers?.get(MFA_GRACE_HEADER);
  if (raw === null || raw === undefined || raw.trim() === '') return;
  const days = Number(raw);
  if (!Number.isInteger(days) || days < 0) return;
  const detail: MfaWarningDetail = { message: mfaWarningMessage(days), days_remaining: days };
  window.dispatchEvent(new CustomEvent('mfa-warning', { detail }));
}

/**
 * The banner text while the grace period runs (the SPEC gives none). The server counts whole days left, rounded up:
 * 1 is the last day; at 0 the grace period is over and the modal takes over.
 */
export function mfaWarningMessage(days: number): string {
  if (days <= 1)
    return 'Two-factor authentication will be required for your account within a day. Set it up now to keep access.';
  return `Two-factor authentication will be required for your account in ${days} days. Set it up now to keep access.`;
}

function isMfaRequired(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { mfa_required?: unknown }).mfa_required === true;
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
