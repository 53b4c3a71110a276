import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

/** What a person sees when an upload's body is not well-formed multipart (no boundary, cut off). */
export const MALFORMED_UPLOAD = 'The upload could not be read. Send the file again.';

// The multipart parser (@fastify/busboy) refuses a body with plain Errors that carry no code or status: these are
// its messages for a body that is not well-formed (no or an over-long boundary, data cut off, an unknown subtype).
const BUSBOY_REFUSALS = [
  /^Multipart: Boundary not found$/,
  /^Boundary required$/,
  /unexpected end of multipart data$/i,
  /^Unsupported Content-Type\.$/,
  /^The needle cannot/,
];
// @fastify/multipart's own codes for a body cut off or built to pollute prototypes.
const MULTIPART_REFUSAL_CODES = new Set(['FST_MP_PREMATURE_CLOSE', 'FST_PROTO_VIOLATION']);

/**
 * Whether `error` is the multipart parser refusing a malformed body: the client's mistake (400 with
 * MALFORMED_UPLOAD), wherever a route happened to read the body. Only multipart requests are considered, so an
 * error of the same wording from elsewhere stays a 500.
 */
export function isMalformedMultipart(request: FastifyRequest, error: { message?: string; code?: unknown }): boolean {
  if (!request.headers['content-type']?.toLowerCase().startsWith('multipart/')) return false;
  if (typeof error.code === 'string' && MULTIPART_REFUSAL_CODES.has(error.code)) return true;
  if (error.code !== undefined || typeof error.message !== 'string') return false;
  const message = error.message;
  return BUSBOY_REFUSALS.some((pattern) => pattern.test(message));
}

/** The 400 a malformed multipart body answers, on the file field a form shows it under. */
export const malformedUpload = () => new AppError('VALIDATION_FAILED', MALFORMED_UPLOAD, { file: [MALFORMED_UPLOAD] });

/**
 * The first file part of a multipart request; undefined when there is none, or when the body is not well-formed
 * multipart (the client's mistake, not ours).
 */
export function firstFilePart(request: FastifyRequest): Promise<MultipartFile | undefined> {
  return request.file().catch((error: { statusCode?: number }) => {
    if (error.statusCode && error.statusCode < 500) return undefined;
    throw error;
  });
}

/** The file's bytes; past the route's size limit a 413 with `tooLarge`, on the file field. */
export async function fileBytes(part: MultipartFile, tooLarge: string): Promise<Buffer> {
  try {
    return await part.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('PAYLOAD_TOO_LARGE', tooLarge, { file: [tooLarge] });
    }
    throw error;
  }
}
