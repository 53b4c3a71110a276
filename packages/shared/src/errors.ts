/**
 * Error codes the API answers with. The body is always { message, errors? } (SPEC section 8 reads `message`,
 * then the first value of `errors`); the code travels in the `code` field for programs, never for display.
 */
export const ERROR_CODES = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  /** A request over a size the server computes on demand (e.g. a series of a dataset over 2,000,000 rows). */
  LIMIT: 422,
  PASSWORD_CONFIRMATION_REQUIRED: 423,
  CSRF_MISMATCH: 419,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorBody {
  message: string;
  code?: ErrorCode;
  errors?: Record<string, string[]>;
  /** Structured detail a screen can place precisely (e.g. formula errors with character positions). */
  details?: Record<string, unknown>;
}

/** The message a screen shows for an error body: `message`, else the first entry of `errors`, else the fallback. */
export function errorMessage(body: unknown, fallback: string): string {
  if (body && typeof body === 'object') {
    const { message, errors } = body as Partial<ErrorBody>;
    if (typeof message === 'string' && message.trim()) return message;
    if (errors && typeof errors === 'object') {
      const first = Object.values(errors)[0];
      const text = Array.isArray(first) ? first[0] : first;
      if (typeof text === 'string' && text.trim()) return text;
    }
  }
  return fallback;
}
