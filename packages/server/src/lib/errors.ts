import { ERROR_CODES, type ErrorCode } from '@portal/shared';

/** The one error type routes and services throw. The error handler turns it into { message, code, errors }. */
export class AppError extends Error {
  readonly status: number;
  /** Structured detail sent as `details` (e.g. formula errors with character positions). */
  details?: Record<string, unknown>;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: Record<string, string[]>,
    /** Seconds until a refused request may be tried again (sent as Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_CODES[code];
  }
}

export const notFound = (message = 'Not found.') => new AppError('NOT_FOUND', message);

/** Adds a message under a field of an `errors` object ({ field: [messages] }). */
export function addFieldError(errors: Record<string, string[]>, field: string, message: string): void {
  const list = errors[field] ?? [];
  list.push(message);
  errors[field] = list;
}

/** A 400 for a failed zod parse outside a route schema, in the same shape the error handler gives route input. */
export function validationFailed(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): AppError {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) addFieldError(errors, issue.path.map(String).join('.') || 'input', issue.message);
  return new AppError('VALIDATION_FAILED', issues[0]?.message ?? 'The given data was invalid.', errors);
}
