/** Elements that start a new paragraph of the plain text. */
const BLOCKS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'DD',
  'DIV',
  'DL',
  'DT',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'LI',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'TABLE',
  'TD',
  'TH',
  'TR',
  'UL',
]);

/**
 * The text of rich-text HTML, one paragraph a line (blocks and line breaks end a paragraph; white space inside one
 * is collapsed). DOMParser builds an inert document: nothing in the HTML runs or loads.
 */
export function htmlToText(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const lines: string[] = [];
  let current = '';
  const flush = () => {
    const line = current.replace(/\s+/g, ' ').trim();
    if (line) lines.push(line);
    current = '';
  };
  const walk = (node: Node) => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === Node.TEXT_NODE) {
        current += child.textContent ?? '';
      } else if (child instanceof Element) {
        if (child.tagName === 'SCRIPT' || child.tagName === 'STYLE' || child.tagName === 'TEMPLATE') continue;
        if (child.tagName === 'BR') {
          flush();
          continue;
        }
        const block = BLOCKS.has(child.tagName);
        if (block) flush();
        walk(child);
        if (block) flush();
      }
    }
  };
  walk(doc.body);
  flush();
  return lines.join('\n');
}
