/**
 * The policy template renderer (issue 12; DOMAIN.md 4.2): one logic-less syntax over the policy editor's HTML, used
 * by the web for the live preview and by the server for the draft, so the preview is the output.
 *
 *   {{name}}              a variable, inserted as text (escaped), never as HTML
 *   {{name|date}}         a 'YYYY-MM-DD' value written as "March 5, 2026"
 *   {{#if flag}}…{{/if}}  kept when the flag or variable is set (true, a non-empty text, a number other than 0)
 *   {{#unless flag}}…{{/unless}}
 *
 * Nothing else: no helpers, partials, expressions or attributes. Placeholders are read in text only; a condition
 * opens and closes at the same level of the document (inside one paragraph, or around whole paragraphs, where a
 * paragraph holding nothing but the marker stands for the marker), so removing a branch always leaves well-formed
 * HTML. `checkTemplate` reports what breaks these rules; the renderer never throws.
 */

export type TemplateValue = string | number | boolean | null;

/** A value per name. A name that is absent is unresolved ("{{name}}" stays, marked); null or '' renders as empty. */
export type TemplateValues = Readonly<Record<string, TemplateValue | undefined>>;

export interface RenderOptions {
  /** Wrap each unresolved placeholder in <mark class="pg-unresolved"><code> (the preview); otherwise plain "{{name}}". */
  markUnresolved?: boolean;
}

export interface RenderResult {
  html: string;
  /** Names left unresolved in the branches kept, in order of first use. */
  unresolved: string[];
}

export const TEMPLATE_NAME_PATTERN = /^[a-z][a-z0-9_]{0,39}$/;
export const TEMPLATE_FILTERS = ['date'] as const;

type Token =
  | { kind: 'tag'; raw: string; name: string; closing: boolean; void: boolean }
  | { kind: 'text'; raw: string }
  | { kind: 'var'; raw: string; name: string; filter: string | null }
  | { kind: 'open'; raw: string; block: 'if' | 'unless'; name: string }
  | { kind: 'close'; raw: string; block: 'if' | 'unless' }
  | { kind: 'bad'; raw: string; message: string };

const TAG =
  /<!--[\s\S]*?-->|<\/?[A-Za-z][^\s/>]*(?:\s+[^\s"'=/>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*\/?>/g;
const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
const VOID_TAGS = new Set(['br', 'hr', 'img', 'col', 'wbr', 'input', 'area', 'source', 'track']);

function placeholder(raw: string, inner: string): Token {
  const body = inner.trim();
  const open = /^#(if|unless)\s+([^\s]+)$/.exec(body);
  if (open) {
    const name = open[2]!;
    if (!TEMPLATE_NAME_PATTERN.test(name)) return { kind: 'bad', raw, message: `${raw}: "${name}" is not a name.` };
    return { kind: 'open', raw, block: open[1] as 'if' | 'unless', name };
  }
  const close = /^\/(if|unless)$/.exec(body);
  if (close) return { kind: 'close', raw, block: close[1] as 'if' | 'unless' };
  const variable = /^([^\s|]+)\s*(?:\|\s*([^\s]+))?$/.exec(body);
  if (variable && TEMPLATE_NAME_PATTERN.test(variable[1]!)) {
    const filter = variable[2] ?? null;
    if (filter !== null && !(TEMPLATE_FILTERS as readonly string[]).includes(filter)) {
      return { kind: 'bad', raw, message: `${raw}: the only filter is |date.` };
    }
    return { kind: 'var', raw, name: variable[1]!, filter };
  }
  return {
    kind: 'bad',
    raw,
    message: `${raw} is not a placeholder: write {{name}}, {{name|date}}, {{#if name}}, {{#unless name}}, {{/if}} or {{/unless}}.`,
  };
}

function tokenize(html: string): Token[] {
  const tokens: Token[] = [];
  const pushText = (text: string) => {
    let last = 0;
    for (const match of text.matchAll(PLACEHOLDER)) {
      if (match.index > last) tokens.push({ kind: 'text', raw: text.slice(last, match.index) });
      tokens.push(placeholder(match[0], match[1]!));
      last = match.index + match[0].length;
    }
    if (last < text.length) tokens.push({ kind: 'text', raw: text.slice(last) });
  };
  let last = 0;
  for (const match of html.matchAll(TAG)) {
    if (match.index > last) pushText(html.slice(last, match.index));
    const raw = match[0];
    if (raw.startsWith('<!--')) {
      last = match.index + raw.length;
      continue; // comments carry nothing a policy needs
    }
    const closing = raw.startsWith('</');
    const name = /^<\/?([A-Za-z][^\s/>]*)/.exec(raw)![1]!.toLowerCase();
    tokens.push({ kind: 'tag', raw, name, closing, void: VOID_TAGS.has(name) || raw.endsWith('/>') });
    last = match.index + raw.length;
  }
  if (last < html.length) pushText(html.slice(last));
  return liftBlockMarkers(tokens);
}

const isBlank = (t: Token | undefined) => t?.kind === 'text' && t.raw.replace(/&nbsp;|&#160;|\s/g, '') === '';

/** `<p>{{#if x}}</p>` (blank text around the marker allowed) is the marker itself, standing between paragraphs. */
function liftBlockMarkers(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'tag' && !t.closing && t.name === 'p') {
      let j = i + 1;
      while (isBlank(tokens[j])) j++;
      const marker = tokens[j];
      if (marker && (marker.kind === 'open' || marker.kind === 'close')) {
        let k = j + 1;
        while (isBlank(tokens[k])) k++;
        const end = tokens[k];
        if (end?.kind === 'tag' && end.closing && end.name === 'p') {
          out.push(marker);
          i = k;
          continue;
        }
      }
    }
    out.push(t);
  }
  return out;
}

export interface TemplateProblem {
  message: string;
}

/**
 * What is wrong with a template's HTML: bad placeholders, unbalanced conditions, conditions that cross element
 * boundaries, placeholders in attributes, and (when `known` is given) names that are neither variables nor flags.
 */
export function checkTemplate(html: string, known?: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const add = (message: string) => {
    if (!problems.includes(message)) problems.push(message);
  };
  const elements: string[] = [];
  const open: { block: 'if' | 'unless'; name: string; depth: number; raw: string }[] = [];
  for (const t of tokenize(html)) {
    if (t.kind === 'bad') add(t.message);
    else if (t.kind === 'tag') {
      if (t.raw.includes('{{')) add('Placeholders go in the text, not inside links or other markup.');
      if (t.void) continue;
      if (!t.closing) elements.push(t.name);
      else {
        const block = open.at(-1);
        if (elements.length > (block?.depth ?? 0)) elements.pop();
        // A closing tag inside a condition that opened in its element. A stray closing tag outside any condition
        // (`</p>` with no `<p>`) is the sanitiser's to drop, not a template error.
        else if (block) add(`${block.raw} must close inside the same paragraph or list item it opens in.`);
      }
    } else if (t.kind === 'var') {
      if (known && !known.has(t.name)) add(`{{${t.name}}} is not a variable of this template.`);
    } else if (t.kind === 'open') {
      if (known && !known.has(t.name)) add(`${t.raw}: "${t.name}" is not a flag or variable of this template.`);
      open.push({ block: t.block, name: t.name, depth: elements.length, raw: t.raw });
    } else if (t.kind === 'close') {
      const top = open.pop();
      if (!top) add(`${t.raw} has no {{#${t.block} …}} to close.`);
      else if (top.block !== t.block) add(`${top.raw} is closed by ${t.raw}; close it with {{/${top.block}}}.`);
      else if (top.depth !== elements.length) {
        add(`${top.raw} must close at the same level it opens: inside one paragraph, or around whole paragraphs.`);
      }
    }
  }
  for (const left of open) add(`${left.raw} is never closed: add {{/${left.block}}}.`);
  return problems;
}

/** Every name a template refers to, as variables and as conditions. */
export function templateNames(html: string): { variables: string[]; conditions: string[] } {
  const variables = new Set<string>();
  const conditions = new Set<string>();
  for (const t of tokenize(html)) {
    if (t.kind === 'var') variables.add(t.name);
    if (t.kind === 'open') conditions.add(t.name);
  }
  return { variables: [...variables], conditions: [...conditions] };
}

export function escapeHtmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** 'YYYY-MM-DD' as "March 5, 2026" (the same in every browser and on the server); anything else unchanged. */
export function formatTemplateDate(value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return value;
  const month = MONTHS[Number(m[2]) - 1];
  return month ? `${month} ${Number(m[3])}, ${m[1]}` : value;
}

export function isTruthy(value: TemplateValue | undefined): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0 && !Number.isNaN(value);
  if (typeof value === 'string') return value.trim() !== '';
  return false;
}

function valueText(value: TemplateValue, filter: string | null): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  const text = String(value);
  return filter === 'date' ? formatTemplateDate(text) : text;
}

/**
 * Renders a template's HTML with values. Conditions that cannot be balanced are dropped as markers (checkTemplate
 * reports them before a template is saved); bad placeholders are left as written text.
 */
export function renderTemplate(html: string, values: TemplateValues, options: RenderOptions = {}): RenderResult {
  const out: string[] = [];
  const unresolved: string[] = [];
  // Each open condition: whether its content is kept. Content is kept while every enclosing condition keeps it.
  const stack: { block: 'if' | 'unless'; keep: boolean }[] = [];
  const keeping = () => stack.every((s) => s.keep);
  for (const t of tokenize(html)) {
    if (t.kind === 'open') {
      const set = isTruthy(values[t.name]);
      stack.push({ block: t.block, keep: t.block === 'if' ? set : !set });
      continue;
    }
    if (t.kind === 'close') {
      if (stack.at(-1)?.block === t.block) stack.pop();
      continue;
    }
    if (!keeping()) continue;
    if (t.kind === 'var') {
      const value = values[t.name];
      if (value === undefined) {
        if (!unresolved.includes(t.name)) unresolved.push(t.name);
        const text = `{{${t.name}}}`;
        // The placeholder as the template writes it: a code, for the author who fills it in.
        out.push(options.markUnresolved ? `<mark class="pg-unresolved"><code>${text}</code></mark>` : text);
      } else out.push(escapeHtmlText(valueText(value, t.filter)));
    } else out.push(t.raw);
  }
  return { html: removeEmptyParagraphs(out.join('')), unresolved };
}

/** A branch removed from inside a paragraph or list can leave it empty; an empty one carries nothing. */
function removeEmptyParagraphs(html: string): string {
  let before: string;
  let after = html;
  do {
    before = after;
    after = after.replace(/<(p|li|ul|ol|h[1-6])(?:\s[^>]*)?>\s*<\/\1>/g, '');
  } while (after !== before);
  return after.trim();
}

/** Whether HTML holds nothing a reader would see (a section that rendered to nothing is left out). */
export function isEmptyHtml(html: string): boolean {
  return (
    html
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;|&#160;/g, '')
      .trim() === ''
  );
}

/** Placeholders still in a text ("{{name}}"): a draft holding any cannot be sent for review. */
export function unresolvedIn(html: string): string[] {
  const names = new Set<string>();
  for (const match of html.matchAll(/\{\{\s*([a-z][a-z0-9_]{0,39})\s*(?:\|\s*date\s*)?\}\}/g)) names.add(match[1]!);
  return [...names];
}
