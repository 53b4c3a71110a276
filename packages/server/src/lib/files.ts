import { createHash } from 'node:crypto';
import { LOGO_MAX_BYTES, type LOGO_TYPES } from '@portal/shared';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { storedFiles } from '../db/schema/index.js';
import { AppError } from './errors.js';

/** The one way files are stored and read (DESIGN section 1 "files"); an object store can come later behind it. */
export interface StoredFile {
  id: number;
  contentType: string;
  size: number;
  sha256: string;
  data: Buffer;
}

export async function storeFile(
  tx: DbOrTx,
  file: {
    projectId: number | null;
    contentType: string;
    data: Buffer;
    createdBy: number | null;
    fileName?: string;
    /** The app clock's time of the upload (the column default, the database's time, without it). */
    createdAt?: Date;
  },
): Promise<number> {
  const [row] = await tx
    .insert(storedFiles)
    .values({
      projectId: file.projectId,
      contentType: file.contentType,
      fileName: file.fileName ?? '',
      size: file.data.length,
      sha256: createHash('sha256').update(file.data).digest('hex'),
      data: file.data,
      createdBy: file.createdBy,
      ...(file.createdAt ? { createdAt: file.createdAt } : {}),
    })
    .returning({ id: storedFiles.id });
  return row!.id;
}

export async function readFile(db: DbOrTx, id: number): Promise<StoredFile | null> {
  const [row] = await db.select().from(storedFiles).where(eq(storedFiles.id, id));
  return row ?? null;
}

export async function deleteFile(tx: DbOrTx, id: number): Promise<void> {
  await tx.delete(storedFiles).where(eq(storedFiles.id, id));
}

// The first bytes of each accepted image type: the declared type must match the content (no SVG: it can hold script).
const SIGNATURES: Record<(typeof LOGO_TYPES)[number], (data: Buffer) => boolean> = {
  'image/png': (d) => d.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (d) => d[0] === 0xff && d[1] === 0xd8 && d[2] === 0xff,
  'image/webp': (d) =>
    d.subarray(0, 4).toString('latin1') === 'RIFF' && d.subarray(8, 12).toString('latin1') === 'WEBP',
};

/** Decodes an uploaded logo and checks its size and that it is the image type it claims to be. */
export function decodeLogo(upload: { content_type: (typeof LOGO_TYPES)[number]; data: string }): Buffer {
  const invalid = (message: string) => new AppError('VALIDATION_FAILED', message, { data: [message] });
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(upload.data)) throw invalid('The logo could not be read. Choose the file again.');
  const data = Buffer.from(upload.data, 'base64');
  if (data.length > LOGO_MAX_BYTES) throw invalid('The logo must be at most 512 KB.');
  if (!SIGNATURES[upload.content_type](data)) throw invalid('The file is not a PNG, JPEG or WebP image.');
  return data;
}
