import type { TemplateBody } from '@portal/shared';

/**
 * A template of the built-in library: shipped with the product as a global template (read-only to projects, which
 * copy it to adapt it). `code` is stable across editions and names the template when the library is loaded.
 */
export interface LibraryTemplate {
  code: string;
  body: TemplateBody;
}
