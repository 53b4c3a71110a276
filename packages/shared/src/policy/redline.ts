import { diffArrays } from 'diff';

/**
 * A redline of two HTML versions: the newer version's structure, with the words it adds marked <ins> and the
 * words it removes kept in place as <del>. Tags are compared as whole tokens, so formatting changes do not tear
 * words apart; removed tags are dropped, which keeps the result as well-formed as the newer version.
 * Both inputs must already be sanitised; the result adds only <ins> and <del>.
 */
const TOKEN = /<[^>]*>|&[#a-zA-Z0-9]+;|[\p{L}\p{N}_'’]+|\s+|[^\s<&\p{L}\p{N}_]/gu;

export function tokenizeHtml(html: string): string[] {
  return html.match(TOKEN) ?? [];
}

const isTag = (token: string) => token.startsWith('<');
// Text may not stand directly inside these: a deletion there is left out instead of breaking the table or list.
const NO_TEXT_INSIDE = /^<(?:table|thead|tbody|tfoot|tr|ul|ol)\b/i;

function wrap(tokens: string[], tag: 'ins' | 'del', context: string[]): string {
  let out = '';
  let run = '';
  const flush = () => {
    if (run.trim()) out += `<${tag}>${run}</${tag}>`;
    else out += tag === 'ins' ? run : '';
    run = '';
  };
  for (const token of tokens) {
    if (isTag(token)) {
      flush();
      if (tag === 'ins') out += token;
    } else {
      run += token;
    }
  }
  flush();
  if (tag === 'del' && NO_TEXT_INSIDE.test(context.at(-1) ?? '')) return '';
  return out;
}

export interface RedlineResult {
  html: string;
  insertions: number;
  deletions: number;
}

/** Word-level redline; gives up on a word diff past `maxEditLength` edits and marks the whole text replaced. */
export function redlineHtml(before: string, after: string, maxEditLength = 20_000): RedlineResult {
  const left = tokenizeHtml(before);
  const right = tokenizeHtml(after);
  const parts = diffArrays(left, right, { maxEditLength }) ?? [
    { value: left, removed: true, added: false, count: left.length },
    { value: right, added: true, removed: false, count: right.length },
  ];
  let html = '';
  let insertions = 0;
  let deletions = 0;
  const open: string[] = []; // open tags of the newer version, to know where text may go
  const track = (token: string) => {
    if (!isTag(token)) return;
    if (token.startsWith('</')) open.pop();
    else if (!token.endsWith('/>') && !/^<(?:br|img|hr)\b/i.test(token)) open.push(token);
  };
  for (const part of parts) {
    if (part.added) {
      const text = wrap(part.value, 'ins', open);
      if (part.value.some((t) => !isTag(t) && t.trim())) insertions++;
      html += text;
      for (const token of part.value) track(token);
    } else if (part.removed) {
      const text = wrap(part.value, 'del', open);
      if (text) deletions++;
      html += text;
    } else {
      html += part.value.join('');
      for (const token of part.value) track(token);
    }
  }
  return { html, insertions, deletions };
}
