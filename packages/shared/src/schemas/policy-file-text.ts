import { z } from 'zod';

/** Where reading an uploaded PDF's text stands (server: modules/policies/file-text.service.ts). */
export const FILE_TEXT_STATES = ['queued', 'reading', 'done', 'failed'] as const;
export type FileTextState = (typeof FILE_TEXT_STATES)[number];

/** pdf_text: the PDF's own text; ocr: (some of it) recognised from scanned page images. */
export const FILE_TEXT_METHODS = ['pdf_text', 'ocr'] as const;
export type FileTextMethod = (typeof FILE_TEXT_METHODS)[number];

/** GET …/documents/:documentId/versions/:versionId/source-text: the text read from the version's PDF. */
export const sourceTextSchema = z.object({
  state: z.enum(FILE_TEXT_STATES),
  method: z.enum(FILE_TEXT_METHODS).nullable(),
  /** 0 to 100 while reading. */
  progress: z.number().int().min(0).max(100),
  pages: z.number().int().nullable(),
  /** Why reading failed, in words; null otherwise. */
  error: z.string().nullable(),
  /** Empty until done, and for a PDF with nothing to read. */
  text: z.string(),
});
export type SourceText = z.infer<typeof sourceTextSchema>;
