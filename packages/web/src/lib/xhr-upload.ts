import { errorMessage } from '@portal/shared';
import type { z } from 'zod';
import { ApiError, readCookie, refreshCsrfCookie } from './api';

const DEFAULT_ERROR = 'The file could not be uploaded. Please try again.';
const UNREACHABLE = 'The server could not be reached. Please check your connection and try again.';

export interface XhrUploadOptions<T> {
  /** Multipart body; fields the server reads first must be appended before the file. */
  body: FormData;
  schema: z.ZodType<T>;
  headers?: Record<string, string>;
  /** Share of the body sent so far, 0 to 1 (1 once the whole body is sent; the server may still be working). */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  errorFallback?: string;
}

interface RawAnswer {
  status: number;
  body: unknown;
}

/**
 * A multipart POST through XMLHttpRequest, because fetch cannot report upload progress. It behaves like apiFetch:
 * same-origin cookies, the X-XSRF-TOKEN header (asking /sanctum/csrf-cookie first when the cookie is missing, and
 * once more after a 419), `{message, errors}` errors as ApiError, and the answer checked with `schema`.
 */
export async function xhrUpload<T>(path: string, options: XhrUploadOptions<T>): Promise<T> {
  const { body, schema, headers = {}, onProgress, signal, errorFallback = DEFAULT_ERROR } = options;
  if (!readCookie('XSRF-TOKEN')) await refreshCsrfCookie();
  let answer = await send(path, body, headers, onProgress, signal);
  if (answer.status === 419) {
    await refreshCsrfCookie();
    answer = await send(path, body, headers, onProgress, signal);
  }

  if (answer.status < 200 || answer.status >= 300) {
    if (answer.status === 403 && isMfaRequired(answer.body)) {
      window.dispatchEvent(new CustomEvent('mfa-required', { detail: answer.body }));
    }
    throw new ApiError(answer.status, answer.body, errorMessage(answer.body, errorFallback));
  }
  const parsed = schema.safeParse(answer.body);
  if (!parsed.success) {
    throw new ApiError(0, answer.body, 'The server sent an unexpected response. Please try again later.', {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

function send(
  path: string,
  body: FormData,
  headers: Record<string, string>,
  onProgress: ((fraction: number) => void) | undefined,
  signal: AbortSignal | undefined,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    const token = readCookie('XSRF-TOKEN');
    if (token) xhr.setRequestHeader('X-XSRF-TOKEN', token);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);

    const abort = () => xhr.abort();
    const done = () => signal?.removeEventListener('abort', abort);
    signal?.addEventListener('abort', abort);
    if (onProgress) {
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) onProgress(Math.min(1, event.loaded / event.total));
      };
      xhr.upload.onload = () => onProgress(1);
    }
    xhr.onload = () => {
      done();
      resolve({ status: xhr.status, body: parseBody(xhr) });
    };
    xhr.onerror = () => {
      done();
      reject(new ApiError(0, null, UNREACHABLE));
    };
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => {
      done();
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
    };
    xhr.send(body);
  });
}

function parseBody(xhr: XMLHttpRequest): unknown {
  if (xhr.status === 204) return undefined;
  const text = xhr.responseText;
  if (!text) return undefined;
  const type = xhr.getResponseHeader('Content-Type') ?? '';
  if (!type.includes('json')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isMfaRequired(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { mfa_required?: unknown }).mfa_required === true;
}
