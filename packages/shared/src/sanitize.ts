import type { Config, DOMPurify } from 'dompurify';

/**
 * The rich-text policy of SPEC section 5, applied by the server before storing and by the web before rendering.
 * Callers pass their own DOMPurify instance (browser window or jsdom), so this module needs no DOM of its own.
 */

/** Links may only be http, https, mailto, tel, blob or relative. */
export const ALLOWED_URI = /^(?:(?:https?|mailto|tel|blob):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

export const FORBIDDEN_TAGS = [
  'script',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'base',
  'link',
  'meta',
  'style',
  'form',
];

/** Attributes whose value is a URL: each must pass ALLOWED_URI, whatever the tag (DOMPurify lets data: into img). */
const URL_ATTRIBUTES = new Set(['href', 'src', 'xlink:href', 'action', 'formaction', 'poster', 'cite', 'background']);

export const SANITIZE_CONFIG: Config = {
  ALLOWED_URI_REGEXP: ALLOWED_URI,
  FORBID_TAGS: FORBIDDEN_TAGS,
  FORBID_ATTR: ['srcdoc', 'formaction'],
  ADD_ATTR: ['target'],
  ALLOW_DATA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
};

// Same whitespace and control characters DOMPurify strips before testing a URI.
// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
const URI_WHITESPACE = /[\u0000-\u0020\u00A0\u1680\u180E\u2000-\u2029\u205F\u3000]/g;

/**
 * Inline styles that name script or a refused URL: IE's expression() and behavior, Firefox's old -moz-binding, and
 * url() with javascript:, vbscript: or data:. Tested after CSS comments and escapes are undone (`\6a avascript:`).
 */
const UNSAFE_STYLE = /expression\(|behavior:|-moz-binding|javascript:|vbscript:|data:/i;

function cssPlain(value: string): string {
  return value
    .replace(/\/\*[\s\S]*?(?:\*\/|$)/g, '')
    .replace(/\\([0-9a-f]{1,6})\s?/gi, (_, hex: string) => {
      const code = Number.parseInt(hex, 16);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
    })
    .replace(/\\(.)/g, '$1')
    .replace(URI_WHITESPACE, '');
}

export type HtmlSanitizer = (html: string) => string;

/** Installs the policy's hooks on a DOMPurify instance and returns the sanitiser. Call once per instance. */
export function createSanitizer(purify: DOMPurify): HtmlSanitizer {
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    // Event handlers are already dropped by DOMPurify; this makes the rule explicit and independent of its defaults.
    if (data.attrName.toLowerCase().startsWith('on')) {
      data.keepAttr = false;
      return;
    }
    if (data.attrName.toLowerCase() === 'style' && UNSAFE_STYLE.test(cssPlain(data.attrValue))) {
      data.keepAttr = false;
      return;
    }
    if (URL_ATTRIBUTES.has(data.attrName.toLowerCase())) {
      const value = data.attrValue.replace(URI_WHITESPACE, '');
      if (!ALLOWED_URI.test(value)) data.keepAttr = false;
    }
  });
  purify.addHook('afterSanitizeAttributes', (node) => {
    // A link opening a new tab must not hand the portal's window to the page it opens.
    if (!node.hasAttribute('target')) return;
    if (node.tagName === 'A' && node.getAttribute('target') === '_blank') {
      node.setAttribute('rel', 'noopener noreferrer');
    } else {
      node.removeAttribute('target');
    }
  });
  return (html: string) => purify.sanitize(html, { ...SANITIZE_CONFIG, RETURN_TRUSTED_TYPE: false }) as string;
}
