import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { createSanitizer } from './sanitize.js';

// A fresh DOMPurify on its own window, as the server and the web each make one.
const sanitize = createSanitizer(createDOMPurify(new JSDOM('').window as unknown as Window & typeof globalThis));

const hrefOf = (html: string) => {
  const match = sanitize(html).match(/href="([^"]*)"/);
  return match ? match[1] : null;
};

describe('rich-text sanitiser (SPEC section 5)', () => {
  it.each([
    ['script', '<p>a</p><script>alert(1)</script>'],
    ['iframe', '<p>a</p><iframe src="https://evil.example"></iframe>'],
    ['frame', '<p>a</p><frame src="https://evil.example">'],
    ['frameset', '<div>a<frameset><frame src="https://evil.example"></frameset></div>'],
    ['object', '<p>a</p><object data="x.swf"></object>'],
    ['embed', '<p>a</p><embed src="x.swf">'],
    ['style', '<p>a</p><style>body{display:none}</style>'],
    ['form', '<p>a</p><form action="https://evil.example"><input name="p"></form>'],
  ])('removes %s elements', (tag, html) => {
    const out = sanitize(html);
    expect(out.toLowerCase()).not.toContain(`<${tag}`);
    expect(out).toContain('a');
  });

  it.each([
    '<img src="x.png" onerror="alert(1)">',
    '<p onclick="alert(1)">x</p>',
    '<a href="/x" ONMOUSEOVER="alert(1)">x</a>',
    '<svg onload="alert(1)"><circle r="1"></circle></svg>',
    '<div onfocus="alert(1)" tabindex="0">x</div>',
  ])('removes event-handler attributes: %s', (html) => {
    expect(sanitize(html).toLowerCase()).not.toMatch(/\son\w+=/);
  });

  it.each([
    ['javascript:', '<a href="javascript:alert(1)">x</a>'],
    ['mixed case', '<a href="JaVaScRiPt:alert(1)">x</a>'],
    ['leading spaces and tabs', '<a href="  java\tscript:alert(1)">x</a>'],
    ['entity-encoded colon', '<a href="javascript&#58;alert(1)">x</a>'],
    ['entity-encoded letters', '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;:alert(1)">x</a>'],
    ['hex entities', '<a href="&#x6A;avascript&#x3A;alert(1)">x</a>'],
    ['newline inside', '<a href="java&#10;script:alert(1)">x</a>'],
    ['data:', '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>'],
    ['DATA: upper case', '<a href="DATA:text/html,<script>alert(1)</script>">x</a>'],
    ['vbscript:', '<a href="vbscript:msgbox(1)">x</a>'],
    ['VbScript: mixed case', '<a href="VbScRiPt:msgbox(1)">x</a>'],
    ['ftp: (not on the list)', '<a href="ftp://example.com/file">x</a>'],
  ])('drops %s links', (_name, html) => {
    expect(hrefOf(html)).toBeNull();
    expect(sanitize(html)).toContain('>x</a>');
  });

  it('drops data: images too (DOMPurify would let them into img)', () => {
    expect(sanitize('<img src="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=" alt="a">')).not.toContain('data:');
  });

  it.each([
    ['http', 'http://example.com/a'],
    ['https', 'https://example.com/a?b=c#d'],
    ['mailto', 'mailto:quality@example.com'],
    ['tel', 'tel:+15550100'],
    ['blob', 'blob:https://portal.example/1234-5678'],
    ['absolute path', '/app/policy_management/1/toc'],
    ['relative path', 'documents/12'],
    ['fragment', '#section-2'],
    ['query', '?page=2'],
  ])('keeps %s links', (_name, href) => {
    expect(hrefOf(`<a href="${href}">x</a>`)).toBe(href.replaceAll('&', '&amp;'));
  });

  it('keeps ordinary formatting', () => {
    const html =
      '<h2>Title</h2><p><strong>Bold</strong> <em>it</em></p><ul><li>one</li></ul><table><tbody><tr><td>c</td></tr></tbody></table>';
    expect(sanitize(html)).toBe(html);
  });

  it('makes links that open a new tab unable to reach the portal window', () => {
    expect(sanitize('<a href="https://example.com" target="_blank">x</a>')).toContain('rel="noopener noreferrer"');
    expect(sanitize('<a href="https://example.com" target="portal">x</a>')).toBe('<a href="https://example.com">x</a>');
  });
});
