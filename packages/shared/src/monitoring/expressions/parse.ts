import jsep from 'jsep';
import {
  BINARY_OPERATORS,
  type BinaryOperator,
  COLUMN_KEY_PATTERN,
  EXPRESSION_LIMITS,
  type ExpressionLevel,
  type ExpressionNode,
  FUNCTION_MAP,
  type FunctionName,
  UNARY_OPERATORS,
  type UnaryOperator,
} from './ast.js';
import { expressionHash } from './hash.js';

/*
 * jsep is a process-wide singleton; other code may import it too. We deliberately do NOT reconfigure it (no
 * removeBinaryOp/addBinaryOp at module load): every operator jsep still parses and we do not allow (`**`, `===`,
 * bitwise, `??`, `~`) is refused below with a pointed message, which a parse error after removing the operator would
 * not give. Safety never depends on jsep's configuration: the strict whitelist below rebuilds our own AST from
 * allowed node kinds only, so plugins or operators added by other users of jsep are refused too.
 */

export interface ExpressionError {
  /** Index of the first character the error is about (0-based, UTF-16 code units, as in the editor). */
  start: number;
  /** Index just after the last character (equal to start at the end of the text). */
  end: number;
  message: string;
}

export interface ParseExpressionOptions {
  /** The dataset's column keys; keys that do not match COLUMN_KEY_PATTERN are ignored. */
  columns: readonly string[];
  level: ExpressionLevel;
}

export type ParseExpressionResult =
  | { ok: true; ast: ExpressionNode; columns: string[]; hash: string }
  | { ok: false; errors: ExpressionError[] };

export const ALLOWED_SYNTAX_MESSAGE =
  'Only numbers, columns, + - * /, comparisons, && || !, ? : and the listed functions are allowed.';

type RawNode = { type: string; [key: string]: unknown };
interface Span {
  start: number;
  end: number;
}

const isNode = (value: unknown): value is RawNode =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

// ---------------------------------------------------------------------------------------------------------------
// Positions. jsep nodes carry none, so we tokenize the text and walk the AST in source order (jsep's AST order,
// left to right, matches the text), claiming for each leaf the first matching token not yet claimed.

interface Token {
  kind: 'word' | 'number' | 'string' | 'punct';
  text: string;
  start: number;
  end: number;
}

const NUMBER = /(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;
const isIdentStart = (code: number) =>
  (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 36 || code === 95 || code >= 128;
const isIdentPart = (code: number) => isIdentStart(code) || (code >= 48 && code <= 57);

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    const code = text.charCodeAt(i);
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === '"' || ch === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== ch) j += text[j] === '\\' ? 2 : 1;
      j = Math.min(j + 1, text.length);
      tokens.push({ kind: 'string', text: text.slice(i, j), start: i, end: j });
      i = j;
    } else if (isIdentStart(code)) {
      let j = i + 1;
      while (j < text.length && isIdentPart(text.charCodeAt(j))) j++;
      tokens.push({ kind: 'word', text: text.slice(i, j), start: i, end: j });
      i = j;
    } else {
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(text);
      if (match && match[0].length > 0) {
        tokens.push({ kind: 'number', text: match[0], start: i, end: i + match[0].length });
        i += match[0].length;
      } else {
        tokens.push({ kind: 'punct', text: ch, start: i, end: i + 1 });
        i++;
      }
    }
  }
  return tokens;
}

interface Positions {
  spans: Map<RawNode, Span>;
  /** Where the operator of a binary or unary node is. */
  operators: Map<RawNode, Span>;
  /** The function name of a call (its callee), or the whole call when the callee is not a name. */
  names: Map<RawNode, Span>;
}

function locate(root: RawNode, text: string): Positions {
  const tokens = tokenize(text);
  const closing = new Map<number, number>();
  const stack: Token[] = [];
  for (const token of tokens) {
    if (token.kind !== 'punct') continue;
    if (token.text === '(' || token.text === '[') stack.push(token);
    else if (token.text === ')' || token.text === ']') {
      const open = stack.pop();
      if (open) closing.set(open.start, token.start);
    }
  }
  const whole: Span = { start: 0, end: text.length };
  const positions: Positions = { spans: new Map(), operators: new Map(), names: new Map() };
  let cursor = 0;

  const claim = (raw: string, punct: boolean): Span | null => {
    const token = tokens.find((t) => t.start >= cursor && (t.kind === 'punct') === punct && t.text === raw);
    if (!token) return null;
    cursor = token.end;
    return { start: token.start, end: token.end };
  };
  const claimOperator = (op: string): Span | null => {
    const index = text.indexOf(op, cursor);
    if (index < 0) return null;
    cursor = index + op.length;
    return { start: index, end: index + op.length };
  };
  const bracketed = (open: '(' | '[', visitInside: () => void): Span | null => {
    const opened = claim(open, true);
    visitInside();
    if (!opened) return null;
    const close = closing.get(opened.start);
    if (close === undefined) return { start: opened.start, end: text.length };
    cursor = Math.max(cursor, close + 1);
    return { start: opened.start, end: close + 1 };
  };
  const join = (...spans: (Span | null | undefined)[]): Span => {
    const present = spans.filter((span): span is Span => !!span);
    if (present.length === 0) return whole;
    return { start: Math.min(...present.map((s) => s.start)), end: Math.max(...present.map((s) => s.end)) };
  };
  const children = (node: RawNode): unknown[] =>
    Object.values(node).flatMap((value) => (Array.isArray(value) ? value : [value]));

  const visit = (value: unknown): Span | null => {
    if (!isNode(value)) return null;
    const node = value;
    let span: Span;
    switch (node.type) {
      case 'Identifier':
        span = claim(String(node.name), false) ?? whole;
        break;
      case 'Literal':
        span = claim(String(node.raw), false) ?? whole;
        break;
      case 'ThisExpression':
        span = claim('this', false) ?? whole;
        break;
      case 'UnaryExpression': {
        const op = claimOperator(String(node.operator));
        if (op) positions.operators.set(node, op);
        span = join(op, visit(node.argument));
        break;
      }
      case 'BinaryExpression': {
        const left = visit(node.left);
        const op = claimOperator(String(node.operator));
        if (op) positions.operators.set(node, op);
        span = join(left, op, visit(node.right));
        break;
      }
      case 'CallExpression': {
        const callee = visit(node.callee);
        const args = bracketed('(', () => {
          for (const arg of Array.isArray(node.arguments) ? node.arguments : []) visit(arg);
        });
        span = join(callee, args);
        positions.names.set(node, isNode(node.callee) && node.callee.type === 'Identifier' && callee ? callee : span);
        break;
      }
      case 'MemberExpression': {
        const object = visit(node.object);
        const property = node.computed ? bracketed('[', () => visit(node.property)) : visit(node.property);
        span = join(object, property);
        break;
      }
      case 'ArrayExpression':
        span =
          bracketed('[', () => {
            for (const element of Array.isArray(node.elements) ? node.elements : []) visit(element);
          }) ?? whole;
        break;
      default:
        // Compound, SequenceExpression, ConditionalExpression and anything a jsep plugin may add: children in order.
        span = join(...children(node).map(visit));
    }
    positions.spans.set(node, span);
    return span;
  };
  visit(root);
  return positions;
}

// ---------------------------------------------------------------------------------------------------------------
// Messages.

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost));
    }
    previous = current;
  }
  return previous[b.length]!;
}

function sharedEnds(a: string, b: string): number {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a.at(-1 - suffix) === b.at(-1 - suffix)) suffix++;
  return prefix + suffix;
}

/**
 * The closest candidate within a small edit distance (case-insensitive), if any; ties go to the candidate sharing the
 * longest start and end with the name (so 'fals' suggests 'falls' rather than 'fall').
 */
export function suggestName(name: string, candidates: Iterable<string>): string | null {
  const lower = name.toLowerCase();
  const limit = Math.max(1, Math.min(3, Math.floor(name.length / 3)));
  let best: string | null = null;
  let bestScore: [number, number] = [Number.POSITIVE_INFINITY, 0];
  for (const candidate of candidates) {
    const other = candidate.toLowerCase();
    const distance = editDistance(lower, other);
    if (distance > limit) continue;
    const ends = sharedEnds(lower, other);
    if (distance < bestScore[0] || (distance === bestScore[0] && ends > bestScore[1])) {
      best = candidate;
      bestScore = [distance, ends];
    }
  }
  return best;
}

const didYouMean = (suggestion: string | null) => (suggestion ? ` Did you mean '${suggestion}'?` : '');
const plural = (n: number) => (n === 1 ? '1 argument' : `${n} arguments`);

function arityMessage(name: string, min: number, max: number | null): string {
  if (max === 0) return `'${name}' takes no arguments.`;
  if (max === min) return `'${name}' needs ${plural(min)}.`;
  if (max === null) return `'${name}' needs at least ${plural(min)}.`;
  return max === min + 1
    ? `'${name}' needs ${min} or ${max} arguments.`
    : `'${name}' needs ${min} to ${max} arguments.`;
}

function operatorMessage(op: string): string {
  if (op === '===') return "Use == to compare ('===' is not allowed).";
  if (op === '!==') return "Use != to compare ('!==' is not allowed).";
  if (op === '**') return "Powers ('**') are not allowed.";
  if (op === '??') return "Use coalesce(a, b) instead of '??'.";
  if (['|', '&', '^', '<<', '>>', '>>>', '~'].includes(op))
    return `Bitwise operator '${op}' is not allowed; use && and || for logic.`;
  return `The operator '${op}' is not allowed. ${ALLOWED_SYNTAX_MESSAGE}`;
}

function syntaxError(error: unknown, text: string): ExpressionError {
  const raw = error as { index?: unknown; description?: unknown; message?: unknown };
  const index = typeof raw.index === 'number' ? Math.max(0, Math.min(raw.index, text.length)) : 0;
  const description = String(raw.description ?? raw.message ?? 'Invalid expression');
  const end = Math.min(index + 1, text.length);
  if (description.startsWith('Unexpected "="')) {
    if (text[index + 1] === '>')
      return { start: index, end: index + 2, message: "Arrow functions ('=>') are not allowed." };
    return { start: index, end, message: "Use == to compare; assignment ('=') is not allowed." };
  }
  if (index >= text.length) return { start: text.length, end: text.length, message: `${description} at the end.` };
  return { start: index, end, message: `${description}.` };
}

// ---------------------------------------------------------------------------------------------------------------
// The whitelist.

interface Check {
  positions: Positions;
  text: string;
  columns: ReadonlySet<string>;
  level: ExpressionLevel;
  errors: ExpressionError[];
  referenced: string[];
  calls: number;
  tooDeep: boolean;
}

function fail(check: Check, span: Span | undefined, message: string): null {
  const { start, end } = span ?? { start: 0, end: check.text.length };
  check.errors.push({ start, end, message });
  return null;
}

function convert(check: Check, node: RawNode, depth: number, inAggregate: boolean): ExpressionNode | null {
  const span = check.positions.spans.get(node);
  if (depth > EXPRESSION_LIMITS.maxDepth) {
    if (!check.tooDeep) {
      check.tooDeep = true;
      fail(check, span, `The expression is nested too deeply (the limit is ${EXPRESSION_LIMITS.maxDepth} levels).`);
    }
    return null;
  }
  const next = (child: unknown, aggregate = inAggregate): ExpressionNode | null =>
    isNode(child) ? convert(check, child, depth + 1, aggregate) : fail(check, span, ALLOWED_SYNTAX_MESSAGE);

  switch (node.type) {
    case 'Literal': {
      const value = node.value;
      if (typeof value === 'number' && Number.isFinite(value)) return { type: 'Literal', value };
      if (typeof value === 'string' || typeof value === 'boolean') return { type: 'Literal', value };
      if (value === null) return fail(check, span, "'null' is not allowed; use coalesce() for missing values.");
      return fail(check, span, ALLOWED_SYNTAX_MESSAGE);
    }
    case 'Identifier': {
      const name = String(node.name);
      if (!check.columns.has(name)) {
        if (FUNCTION_MAP.has(name)) return fail(check, span, `'${name}' is a function: write ${name}(...).`);
        return fail(check, span, `Unknown column '${name}'.${didYouMean(suggestName(name, check.columns))}`);
      }
      if (!check.referenced.includes(name)) check.referenced.push(name);
      if (check.level === 'period' && !inAggregate)
        return fail(check, span, 'A column must be inside an aggregate such as sum() in a period expression.');
      return { type: 'Identifier', name };
    }
    case 'BinaryExpression': {
      const operator = String(node.operator);
      const left = next(node.left);
      const right = next(node.right);
      if (!BINARY_OPERATORS.has(operator))
        return fail(check, check.positions.operators.get(node) ?? span, operatorMessage(operator));
      if (!left || !right) return null;
      return { type: 'BinaryExpression', operator: operator as BinaryOperator, left, right };
    }
    case 'UnaryExpression': {
      const operator = String(node.operator);
      const argument = next(node.argument);
      if (!UNARY_OPERATORS.has(operator))
        return fail(check, check.positions.operators.get(node) ?? span, operatorMessage(operator));
      if (!argument) return null;
      return { type: 'UnaryExpression', operator: operator as UnaryOperator, argument };
    }
    case 'ConditionalExpression': {
      const test = next(node.test);
      const consequent = next(node.consequent);
      const alternate = next(node.alternate);
      if (!test || !consequent || !alternate) return null;
      return { type: 'ConditionalExpression', test, consequent, alternate };
    }
    case 'CallExpression':
      return convertCall(check, node, depth, inAggregate);
    case 'ThisExpression':
      return fail(check, span, `'this' is not allowed. ${ALLOWED_SYNTAX_MESSAGE}`);
    case 'MemberExpression':
      return fail(check, span, `Property access ('.' or '[...]') is not allowed. ${ALLOWED_SYNTAX_MESSAGE}`);
    case 'ArrayExpression':
      return fail(check, span, `Lists ('[...]') are not allowed. ${ALLOWED_SYNTAX_MESSAGE}`);
    case 'Compound': {
      const body = Array.isArray(node.body) ? node.body : [];
      const second = isNode(body[1]) ? check.positions.spans.get(body[1]) : undefined;
      const where = second ?? span;
      return check.text.includes(';')
        ? fail(check, where, "Write a single expression: ';' is not allowed.")
        : fail(check, where, 'Write a single expression: is an operator missing here?');
    }
    case 'SequenceExpression':
      return fail(check, span, 'Commas are only allowed between the arguments of a function.');
    default:
      return fail(check, span, ALLOWED_SYNTAX_MESSAGE);
  }
}

function convertCall(check: Check, node: RawNode, depth: number, inAggregate: boolean): ExpressionNode | null {
  const span = check.positions.spans.get(node);
  const nameSpan = check.positions.names.get(node) ?? span;
  check.calls++;
  if (check.calls === EXPRESSION_LIMITS.maxCalls + 1)
    fail(check, nameSpan, `Too many function calls (the limit is ${EXPRESSION_LIMITS.maxCalls}).`);
  const callee = node.callee;
  if (!isNode(callee) || callee.type !== 'Identifier')
    return fail(
      check,
      span,
      `Only the listed functions can be called, by name, such as sum(x). ${ALLOWED_SYNTAX_MESSAGE}`,
    );
  const name = String(callee.name);
  const info = FUNCTION_MAP.get(name);
  const rawArgs = Array.isArray(node.arguments) ? node.arguments : [];
  const aggregate = info?.kind === 'aggregate';
  // The arguments of an unknown function are checked as if aggregated, so they do not add level errors.
  const args = rawArgs.map((arg) =>
    isNode(arg)
      ? convert(check, arg, depth + 1, inAggregate || aggregate || !info)
      : fail(check, span, ALLOWED_SYNTAX_MESSAGE),
  );
  if (!info)
    return fail(check, nameSpan, `Unknown function '${name}'.${didYouMean(suggestName(name, FUNCTION_MAP.keys()))}`);
  const { min, max } = info.arity;
  if (rawArgs.length < min || (max !== null && rawArgs.length > max))
    return fail(check, nameSpan, arityMessage(name, min, max));
  if (aggregate && check.level === 'row')
    return fail(check, span, 'Aggregates such as sum() cannot be used in a row expression.');
  if (aggregate && inAggregate)
    return fail(check, span, `'${name}' cannot be used inside another aggregate such as sum().`);
  if (args.some((arg) => arg === null)) return null;
  const calleeName: FunctionName = info.aliasOf ?? info.name;
  return { type: 'CallExpression', callee: calleeName, arguments: args as ExpressionNode[] };
}

/**
 * Parse and check an expression of the monitoring formula builder. Row expressions (derived columns) may use columns
 * but no aggregates; period expressions (numerator, denominator, value) must wrap every column in an aggregate.
 */
export function parseExpression(text: string, options: ParseExpressionOptions): ParseExpressionResult {
  const { maxLength } = EXPRESSION_LIMITS;
  if (text.length > maxLength)
    return {
      ok: false,
      errors: [
        {
          start: maxLength,
          end: text.length,
          message: `The expression is too long (${text.length} characters; the limit is ${maxLength}).`,
        },
      ],
    };
  if (text.trim() === '')
    return { ok: false, errors: [{ start: 0, end: text.length, message: 'The expression is empty.' }] };
  let root: unknown;
  try {
    root = jsep(text);
  } catch (error) {
    return { ok: false, errors: [syntaxError(error, text)] };
  }
  if (!isNode(root)) return { ok: false, errors: [{ start: 0, end: text.length, message: ALLOWED_SYNTAX_MESSAGE }] };
  const check: Check = {
    positions: locate(root, text),
    text,
    columns: new Set(options.columns.filter((key) => COLUMN_KEY_PATTERN.test(key))),
    level: options.level,
    errors: [],
    referenced: [],
    calls: 0,
    tooDeep: false,
  };
  const ast = convert(check, root, 1, false);
  if (!ast || check.errors.length > 0) {
    const errors =
      check.errors.length > 0 ? check.errors : [{ start: 0, end: text.length, message: ALLOWED_SYNTAX_MESSAGE }];
    return { ok: false, errors: errors.sort((a, b) => a.start - b.start || a.end - b.end) };
  }
  return { ok: true, ast, columns: check.referenced, hash: expressionHash(ast) };
}
