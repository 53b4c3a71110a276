import type { ErrorBody } from '@portal/shared';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, addFieldError } from '../lib/errors.js';
import { isMalformedMultipart, malformedUpload } from '../lib/uploads.js';

/**
 * One error envelope for every route: { message, code, errors? }. Validation failures name each field;
 * unexpected failures answer 500 with a reference to the log line and nothing of the internals.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((thrown: FastifyError | AppError, request, reply) => {
    // A body that is not well-formed multipart is refused here for every upload route, however the route reads it.
    const error = isMalformedMultipart(request, thrown) ? malformedUpload() : thrown;
    if (error instanceof AppError) {
      const body: ErrorBody = { message: error.message, code: error.code };
      if (error.errors) body.errors = error.errors;
      if (error.details) body.details = error.details;
      if (error.retryAfterSeconds) reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.status(error.status).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: Record<string, string[]> = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || error.validationContext || 'body';
        addFieldError(errors, field, issue.message ?? 'This value is not valid.');
      }
      const message = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
      return reply.status(400).send({ message, code: 'VALIDATION_FAILED', errors } satisfies ErrorBody);
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Fastify's own client errors (malformed JSON, body too large, unsupported media type): safe to echo.
      request.log.info({ err: error }, 'client error');
      return reply.status(error.statusCode).send({ message: error.message } satisfies ErrorBody);
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.status(500).send({
      message: `Something went wrong on our side. Please try again; if it keeps happening, contact your administrator with reference ${request.id}.`,
      code: 'INTERNAL',
    } satisfies ErrorBody);
  });
}
