import { APP_CODES, type AppCode, emailSchema, LOGO_MAX_BYTES, LOGO_TYPES, type Member } from '@portal/shared';
import { APP_INFO } from '../../../lib/apps';

/** The six apps a project can activate, with the names people read. */
export const APP_OPTIONS: { value: AppCode; label: string }[] = APP_CODES.map((code) => ({
  value: code,
  label: APP_INFO[code].name,
}));

export const SLUG_MAX = 50;

/** Said when Save is pressed with nothing changed. */
export const NO_CHANGES = 'No changes to save.';

/** "St. Mary's Clínica" -> "st-marys-clinica": lower case, spaces to hyphens, only [A-Za-z0-9_-], at most 50. */
export function suggestSlug(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim()
    .replace(/\s+/g, '-')
    .replace(/[^a-z0-9_-]/g, '')
    .replace(/-{2,}/g, '-')
    .slice(0, SLUG_MAX)
    .replace(/^-+|-+$/g, '');
}

export function memberName(member: Pick<Member, 'first_name' | 'last_name' | 'username'>): string {
  return `${member.first_name} ${member.last_name}`.trim() || member.username;
}

export const LOGO_TYPE_MESSAGE = 'The logo must be a PNG, JPEG or WebP image.';
export const LOGO_SIZE_MESSAGE = 'The logo must be at most 512 KB.';

export type LogoType = (typeof LOGO_TYPES)[number];

function isLogoType(type: string): type is LogoType {
  return (LOGO_TYPES as readonly string[]).includes(type);
}

/** What is wrong with a chosen file, or null when it can be uploaded. */
export function logoFileError(file: File): string | null {
  if (!isLogoType(file.type)) return LOGO_TYPE_MESSAGE;
  if (file.size > LOGO_MAX_BYTES) {
    return `${LOGO_SIZE_MESSAGE} This file is ${Math.ceil(file.size / 1024).toLocaleString('en-US')} KB.`;
  }
  if (file.size === 0) return 'This file is empty. Choose an image.';
  return null;
}

/** The file as base64 without its "data:...;base64," prefix, as PUT .../logo wants it. */
export function readFileAsBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const result = typeof reader.result === 'string' ? reader.result : '';
      const comma = result.indexOf(',');
      resolve(comma >= 0 ? result.slice(comma + 1) : result);
    };
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });
}

/**
 * The logo's address with the project's last change appended, so a new logo at the same address is not hidden by
 * the browser's cache of the old one.
 */
export function logoSrc(logoUrl: string, version: string): string {
  return `${logoUrl}${logoUrl.includes('?') ? '&' : '?'}v=${encodeURIComponent(version)}`;
}

/**
 * The contact email is optional: the schema's "empty or an email" union reports a bad address only as "Invalid
 * input", so the email schema's own message is shown instead.
 */
export function withEmailMessage<T extends { email?: string }>(errors: T, email: string): T {
  if (!errors.email || email.trim() === '') return errors;
  const parsed = emailSchema.safeParse(email);
  return parsed.success ? errors : { ...errors, email: parsed.error.issues[0]?.message ?? errors.email };
}
