/**
 * CFR paragraph designators (GPO, e-CFR XML User Guide; 1 CFR 21.11): levels (a), (1), (i), (A), (<I>1</I>),
 * (<I>i</I>). A marker such as (i), (v) or (x) reads as a letter or a roman numeral; which one is decided by the
 * paragraphs around it, the way a reader decides: it continues the sequence it can continue, and a roman (i) opens
 * below a numbered paragraph only when (ii) follows.
 */

export type MarkerKind = 'lower' | 'digit' | 'roman' | 'upper' | 'italicDigit' | 'italicRoman';

/** A marker as written at the start of a paragraph: its characters and whether they were in italics. */
export interface Marker {
  value: string;
  italic: boolean;
}

const KIND_ORDER: MarkerKind[] = ['lower', 'digit', 'roman', 'upper', 'italicDigit', 'italicRoman'];

const ROMAN = /^(?=[ivxl]+$)(x{0,3}|xl|l)(ix|iv|v?i{0,3})$/;

function romanValue(text: string): number {
  const values: Record<string, number> = { i: 1, v: 5, x: 10, l: 50 };
  let total = 0;
  for (let i = 0; i < text.length; i++) {
    const value = values[text[i]!]!;
    const next = values[text[i + 1] ?? ''] ?? 0;
    total += value < next ? -value : value;
  }
  return total;
}

/** The kinds a marker can be. */
export function kindsOf(marker: Marker): MarkerKind[] {
  const { value, italic } = marker;
  if (/^\d+$/.test(value)) return [italic ? 'italicDigit' : 'digit'];
  if (italic) return ROMAN.test(value) ? ['italicRoman'] : [];
  const kinds: MarkerKind[] = [];
  if (/^[a-z]$/.test(value) || /^([a-z])\1+$/.test(value)) kinds.push('lower');
  if (ROMAN.test(value)) kinds.push('roman');
  if (/^[A-Z]$/.test(value) || /^([A-Z])\1+$/.test(value)) kinds.push('upper');
  return kinds;
}

/** The position of a marker within its kind (a = 1, aa = 27; 1 = 1; i = 1; A = 1). */
export function ordinal(value: string, kind: MarkerKind): number {
  if (kind === 'digit' || kind === 'italicDigit') return Number(value);
  if (kind === 'roman' || kind === 'italicRoman') return romanValue(value);
  const base = kind === 'lower' ? 96 : 64;
  return value.charCodeAt(0) - base + 26 * (value.length - 1);
}

interface Open {
  kind: MarkerKind;
  ordinal: number;
}

/**
 * Gives each marker of a section its depth (0 for (a)) given the markers in document order. The stack holds the open
 * paragraphs; a marker either continues one of them (its next ordinal) or opens the first paragraph one level down.
 */
export function depthsOf(markers: readonly Marker[]): number[] {
  const stack: Open[] = [];
  const depths: number[] = [];
  markers.forEach((marker, index) => {
    const kinds = kindsOf(marker);
    const options: { depth: number; kind: MarkerKind }[] = [];
    for (const kind of kinds) {
      const at = ordinal(marker.value, kind);
      // Continue an open paragraph of this kind (the deepest that fits).
      for (let depth = stack.length - 1; depth >= 0; depth--) {
        if (stack[depth]!.kind === kind && stack[depth]!.ordinal + 1 === at) {
          options.push({ depth, kind });
          break;
        }
      }
      // Open a first paragraph one level down, of a kind not already open above.
      if (at === 1 && !stack.some((open) => open.kind === kind)) options.push({ depth: stack.length, kind });
    }
    let choice = options[0];
    if (options.length > 1) {
      // A roman (i) below a numbered paragraph only when (ii) follows it; otherwise the letter goes on.
      const next = markers[index + 1];
      const romanFollows = next !== undefined && next.value === 'ii';
      choice =
        options.find((option) => (romanFollows ? option.kind === 'roman' : option.kind !== 'roman')) ??
        options.reduce((deepest, option) => (option.depth > deepest.depth ? option : deepest));
    }
    if (!choice) {
      // Out of sequence (a reserved or skipped paragraph): take the nearest open level of a kind it can be, else
      // the level its kind holds in the usual order.
      const kind = kinds[0] ?? 'lower';
      const open = stack.findIndex((o) => o.kind === kind);
      choice = { depth: open >= 0 ? open : Math.min(stack.length, KIND_ORDER.indexOf(kind)), kind };
    }
    stack.length = choice.depth;
    stack.push({ kind: choice.kind, ordinal: ordinal(marker.value, choice.kind) });
    depths.push(choice.depth);
  });
  return depths;
}
