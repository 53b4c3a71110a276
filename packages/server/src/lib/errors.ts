import { ERROR_CODES, type ErrorCode } from '@portal/shared';

/** The one error type routes and services throw. The error handler turns it into { message, code, errors }. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: Record<string, string[]>,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_CODES[code];
  }
}

export const notFound = (message = 'Not found.') => new AppError('NOT_FOUND', message);
