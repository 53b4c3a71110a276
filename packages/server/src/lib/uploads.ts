import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

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
