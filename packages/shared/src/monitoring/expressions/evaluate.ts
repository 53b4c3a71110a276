import { type ExpressionNode, FUNCTION_MAP } from './ast.js';

/**
 * Evaluation of a checked AST (from parseExpression). A plain tree walk over our own node kinds: no eval, no
 * Function, no vm. Columns are read with Object.hasOwn only, functions through a Map. Semantics, chosen so that every
 * construct has a SQL equivalent later:
 * - missing values (null, undefined, absent keys, non-finite numbers, objects) are null; null propagates through
 *   arithmetic and comparisons; division (or %) by zero is null;
 * - arithmetic is numeric: booleans count as 1/0, numeric strings as numbers, other strings as null (no concatenation);
 * - == != < <= > >= compare numbers when both sides are numeric, otherwise the texts;
 * - && || ! use three-valued logic (null is "unknown"); a condition that is null counts as false (countIf, ?:, if);
 * - aggregates skip missing values: count/countIf/sum/sumIf/distinctCount give 0 on an empty period,
 *   mean/median/min/max give null.
 */

export type ExpressionValue = number | string | boolean | null;
type Scope =
  | { kind: 'row'; row: Record<string, unknown> }
  | { kind: 'period'; rows: readonly Record<string, unknown>[] };

const NUMERIC_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function cell(row: Record<string, unknown>, key: string): ExpressionValue {
  if (!Object.hasOwn(row, key)) return null;
  const value = row[key];
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  return null;
}

function toNumber(value: ExpressionValue): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    const text = value.trim();
    return NUMERIC_TEXT.test(text) ? Number(text) : null;
  }
  return null;
}

function toBoolean(value: ExpressionValue): boolean | null {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  const text = value.trim().toLowerCase();
  if (text === '') return null;
  if (text === 'true' || text === 'yes') return true;
  if (text === 'false' || text === 'no') return false;
  const number = toNumber(text);
  return number === null ? true : number !== 0;
}

const finite = (value: number): number | null => (Number.isFinite(value) ? value : null);

function compare(operator: string, a: ExpressionValue, b: ExpressionValue): boolean | null {
  if (a === null || b === null) return null;
  const x = toNumber(a);
  const y = toNumber(b);
  const [left, right]: [number | string, number | string] = x !== null && y !== null ? [x, y] : [String(a), String(b)];
  switch (operator) {
    case '==':
      return left === right;
    case '!=':
      return left !== right;
    case '<':
      return left < right;
    case '<=':
      return left <= right;
    case '>':
      return left > right;
    case '>=':
      return left >= right;
  }
  throw new Error(`Unsupported comparison '${operator}'`);
}

function arithmetic(operator: string, a: ExpressionValue, b: ExpressionValue): number | null {
  const x = toNumber(a);
  const y = toNumber(b);
  if (x === null || y === null) return null;
  switch (operator) {
    case '+':
      return finite(x + y);
    case '-':
      return finite(x - y);
    case '*':
      return finite(x * y);
    case '/':
      return y === 0 ? null : finite(x / y);
    case '%':
      return y === 0 ? null : finite(x % y);
  }
  throw new Error(`Unsupported operator '${operator}'`);
}

function numbersOf(rows: readonly Record<string, unknown>[], node: ExpressionNode, where?: ExpressionNode): number[] {
  const values: number[] = [];
  for (const row of rows) {
    const scope: Scope = { kind: 'row', row };
    if (where && toBoolean(evaluate(where, scope)) !== true) continue;
    const value = toNumber(evaluate(node, scope));
    if (value !== null) values.push(value);
  }
  return values;
}

function aggregate(name: string, args: ExpressionNode[], rows: readonly Record<string, unknown>[]): number | null {
  const [first, second] = args;
  switch (name) {
    case 'count':
      return rows.length;
    case 'countIf':
      return rows.filter((row) => toBoolean(evaluate(first!, { kind: 'row', row })) === true).length;
    case 'sum':
    case 'sumIf':
      return finite(numbersOf(rows, first!, name === 'sumIf' ? second : undefined).reduce((a, b) => a + b, 0));
    case 'mean':
    case 'avg': {
      const values = numbersOf(rows, first!);
      return values.length === 0 ? null : finite(values.reduce((a, b) => a + b, 0) / values.length);
    }
    case 'median': {
      const values = numbersOf(rows, first!).sort((a, b) => a - b);
      if (values.length === 0) return null;
      const middle = Math.floor(values.length / 2);
      return values.length % 2 === 1 ? values[middle]! : (values[middle - 1]! + values[middle]!) / 2;
    }
    case 'min':
    case 'max': {
      const values = numbersOf(rows, first!);
      if (values.length === 0) return null;
      return values.reduce((a, b) => (name === 'min' ? Math.min(a, b) : Math.max(a, b)));
    }
    case 'distinctCount': {
      const seen = new Set<string>();
      for (const row of rows) {
        const value = evaluate(first!, { kind: 'row', row });
        if (value !== null) seen.add(`${typeof value}:${String(value)}`);
      }
      return seen.size;
    }
  }
  throw new Error(`Unknown aggregate '${name}'`);
}

/**
 * x rounded to `digits` decimal places (0 to 12), halves away from zero, on the decimal value as written, as
 * PostgreSQL numeric and Excel round: round(1.005, 2) = 1.01 and round(2.675, 2) = 2.68, although the nearest
 * doubles are 1.00499999999999989... and 2.67499999999999982... The digits are those of the shortest decimal
 * string that reads back as x (Number.prototype.toString), rounded as a string and read back once.
 */
export function roundDecimal(value: number, digits: number): number | null {
  if (!Number.isFinite(value)) return null;
  const places = Math.min(12, Math.max(0, Math.trunc(digits)));
  const [mantissa = '0', exponent = '0'] = Math.abs(value).toString().split('e');
  const [whole = '0', fraction = ''] = mantissa.split('.');
  const all = whole + fraction;
  // Digits kept: those before the decimal point plus `places` after it.
  const keep = whole.length + Number(exponent) + places;
  if (keep >= all.length) return value;
  if (keep < 0) return 0;
  let kept = BigInt(all.slice(0, keep) || '0');
  if (all.charCodeAt(keep) >= 53 /* '5' */) kept += 1n;
  const result = Number(`${kept}e-${places}`);
  return finite(value < 0 && result !== 0 ? -result : result);
}

function scalar(name: string, args: ExpressionNode[], scope: Scope): ExpressionValue {
  const value = (index: number) => evaluate(args[index]!, scope);
  switch (name) {
    case 'abs': {
      const x = toNumber(value(0));
      return x === null ? null : Math.abs(x);
    }
    case 'round': {
      const x = toNumber(value(0));
      const digits = args.length > 1 ? toNumber(value(1)) : 0;
      return x === null || digits === null ? null : roundDecimal(x, digits);
    }
    case 'coalesce':
      for (const arg of args) {
        const result = evaluate(arg, scope);
        if (result !== null) return result;
      }
      return null;
    case 'clamp': {
      const [x, low, high] = [toNumber(value(0)), toNumber(value(1)), toNumber(value(2))];
      return x === null || low === null || high === null ? null : Math.min(Math.max(x, low), high);
    }
    case 'if':
      return toBoolean(value(0)) === true ? value(1) : value(2);
  }
  throw new Error(`Unknown function '${name}'`);
}

function evaluate(node: ExpressionNode, scope: Scope): ExpressionValue {
  switch (node.type) {
    case 'Literal':
      return typeof node.value === 'number' ? finite(node.value) : node.value;
    case 'Identifier':
      if (scope.kind !== 'row') throw new Error(`Column '${node.name}' outside an aggregate in a period expression`);
      return cell(scope.row, node.name);
    case 'UnaryExpression': {
      const value = evaluate(node.argument, scope);
      if (node.operator === '!') {
        const bool = toBoolean(value);
        return bool === null ? null : !bool;
      }
      const number = toNumber(value);
      if (number === null) return null;
      if (node.operator === '-') return -number;
      if (node.operator === '+') return number;
      throw new Error(`Unsupported operator '${node.operator}'`);
    }
    case 'BinaryExpression': {
      const { operator } = node;
      if (operator === '&&' || operator === '||') {
        const left = toBoolean(evaluate(node.left, scope));
        const decisive = operator === '||';
        if (left === decisive) return decisive;
        const right = toBoolean(evaluate(node.right, scope));
        if (right === decisive) return decisive;
        return left === null || right === null ? null : !decisive;
      }
      const left = evaluate(node.left, scope);
      const right = evaluate(node.right, scope);
      if (['==', '!=', '<', '<=', '>', '>='].includes(operator)) return compare(operator, left, right);
      return arithmetic(operator, left, right);
    }
    case 'ConditionalExpression':
      return toBoolean(evaluate(node.test, scope)) === true
        ? evaluate(node.consequent, scope)
        : evaluate(node.alternate, scope);
    case 'CallExpression': {
      const info = FUNCTION_MAP.get(node.callee);
      if (!info) throw new Error(`Unknown function '${String(node.callee)}'`);
      if (info.kind === 'scalar') return scalar(info.name, node.arguments, scope);
      if (scope.kind !== 'period') throw new Error(`Aggregate '${info.name}' in a row expression`);
      return aggregate(info.name, node.arguments, scope.rows);
    }
  }
  throw new Error(`Unsupported expression node '${String((node as { type?: unknown }).type)}'`);
}

/** The value of a row expression (a derived column) for one row. Throws on an AST that is not a row expression. */
export function evaluateRow(ast: ExpressionNode, row: Record<string, unknown>): ExpressionValue {
  return evaluate(ast, { kind: 'row', row });
}

/**
 * The value of a period expression over the rows of one period (null when it cannot be computed, e.g. division by
 * zero or the mean of nothing). Throws on an AST that is not a period expression.
 */
export function evaluatePeriod(ast: ExpressionNode, rows: readonly Record<string, unknown>[]): number | null {
  return toNumber(evaluate(ast, { kind: 'period', rows }));
}

/** The number of nodes of an AST, for capping work per request (rows × nodes). */
export function expressionSize(ast: ExpressionNode): number {
  switch (ast.type) {
    case 'Literal':
    case 'Identifier':
      return 1;
    case 'UnaryExpression':
      return 1 + expressionSize(ast.argument);
    case 'BinaryExpression':
      return 1 + expressionSize(ast.left) + expressionSize(ast.right);
    case 'ConditionalExpression':
      return 1 + expressionSize(ast.test) + expressionSize(ast.consequent) + expressionSize(ast.alternate);
    case 'CallExpression':
      return 1 + ast.arguments.reduce((total, arg) => total + expressionSize(arg), 0);
  }
}

/** The column keys an AST reads, so a caller can fetch only those cells. */
export function expressionColumns(ast: ExpressionNode, into: Set<string> = new Set()): Set<string> {
  switch (ast.type) {
    case 'Literal':
      break;
    case 'Identifier':
      into.add(ast.name);
      break;
    case 'UnaryExpression':
      expressionColumns(ast.argument, into);
      break;
    case 'BinaryExpression':
      expressionColumns(ast.left, into);
      expressionColumns(ast.right, into);
      break;
    case 'ConditionalExpression':
      expressionColumns(ast.test, into);
      expressionColumns(ast.consequent, into);
      expressionColumns(ast.alternate, into);
      break;
    case 'CallExpression':
      for (const arg of ast.arguments) expressionColumns(arg, into);
      break;
  }
  return into;
}
