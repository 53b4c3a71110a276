/**
 * The monitoring expression language (DOMAIN.md 1.3, issue 9): the normalised AST we store (jsonb) and evaluate, the
 * whitelisted functions and the limits. The AST is ours, not jsep's: only whitelisted node kinds can be built.
 */

export type ExpressionLevel = 'row' | 'period';

export type BinaryOperator = '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '&&' | '||';
export type UnaryOperator = '-' | '+' | '!';

export type AggregateFunctionName =
  | 'count'
  | 'countIf'
  | 'sum'
  | 'sumIf'
  | 'mean'
  | 'avg'
  | 'median'
  | 'min'
  | 'max'
  | 'distinctCount';
export type ScalarFunctionName = 'abs' | 'round' | 'coalesce' | 'clamp' | 'if';
export type FunctionName = AggregateFunctionName | ScalarFunctionName;

export type ExpressionNode =
  | { type: 'Literal'; value: number | string | boolean }
  | { type: 'Identifier'; name: string }
  | { type: 'BinaryExpression'; operator: BinaryOperator; left: ExpressionNode; right: ExpressionNode }
  | { type: 'UnaryExpression'; operator: UnaryOperator; argument: ExpressionNode }
  | { type: 'ConditionalExpression'; test: ExpressionNode; consequent: ExpressionNode; alternate: ExpressionNode }
  /** `avg` is normalised to `mean` when parsing. */
  | { type: 'CallExpression'; callee: FunctionName; arguments: ExpressionNode[] };

export const BINARY_OPERATORS: ReadonlySet<string> = new Set<BinaryOperator>([
  '+',
  '-',
  '*',
  '/',
  '%',
  '==',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  '&&',
  '||',
]);
export const UNARY_OPERATORS: ReadonlySet<string> = new Set<UnaryOperator>(['-', '+', '!']);

export const EXPRESSION_LIMITS = { maxLength: 500, maxDepth: 20, maxCalls: 50 } as const;

/** Dataset column keys (the editor shows labels as chips and inserts keys). */
export const COLUMN_KEY_PATTERN = /^[a-z][a-z0-9_]{0,62}$/;

export interface FunctionInfo {
  name: FunctionName;
  kind: 'aggregate' | 'scalar';
  /** Number of arguments: `max` null means any number from `min`. */
  arity: { min: number; max: number | null };
  /** How the editor shows it, e.g. `sumIf(x, condition)`. */
  signature: string;
  description: string;
  /** Set on aliases (`avg` -> `mean`); the parser stores the target name. */
  aliasOf?: FunctionName;
}

/** The whitelisted functions, for the parser, the evaluator and the editor's autocomplete. */
export const FUNCTIONS: readonly FunctionInfo[] = [
  {
    name: 'count',
    kind: 'aggregate',
    arity: { min: 0, max: 0 },
    signature: 'count()',
    description: 'The number of rows in the period.',
  },
  {
    name: 'countIf',
    kind: 'aggregate',
    arity: { min: 1, max: 1 },
    signature: 'countIf(condition)',
    description: 'The number of rows in the period where the condition is true.',
  },
  {
    name: 'sum',
    kind: 'aggregate',
    arity: { min: 1, max: 1 },
    signature: 'sum(x)',
    description: 'The sum of x over the rows of the period (missing values are skipped; 0 when there are none).',
  },
  {
    name: 'sumIf',
    kind: 'aggregate',
    arity: { min: 2, max: 2 },
    signature: 'sumIf(x, condition)',
    description: 'The sum of x over the rows of the period where the condition is true.',
  },
  {
    name: 'mean',
    kind: 'aggregate',
    arity: { min: 1, max: 1 },
    signature: 'mean(x)',
    description: 'The average of x over the rows of the period (empty when there are no values).',
  },
  {
    name: 'avg',
    kind: 'aggregate',
    arity: { min: 1, max: 1 },
    signature: 'avg(x)',
    description: 'Same as mean(x).',
    aliasOf: 'mean',
  },
  {
    name: 'median',
    kind: 'aggregate',
    arity: { min: 1, max: 1 },
    signature: 'median(x)',
    description: 'The middle value of x over the rows of the period (empty when there are no values).',
  },
  {
    name: 'min',
    kind: 'aggregate',
    arity: { min: 1, max: 1 },
    signature: 'min(x)',
    description: 'The smallest value of x in the period (empty when there are no values).',
  },
  {
    name: 'max',
    kind: 'aggregate',
    arity: { min: 1, max: 1 },
    signature: 'max(x)',
    description: 'The largest value of x in the period (empty when there are no values).',
  },
  {
    name: 'distinctCount',
    kind: 'aggregate',
    arity: { min: 1, max: 1 },
    signature: 'distinctCount(x)',
    description: 'The number of different values of x in the period (missing values are not counted).',
  },
  {
    name: 'abs',
    kind: 'scalar',
    arity: { min: 1, max: 1 },
    signature: 'abs(x)',
    description: 'The absolute value of x.',
  },
  {
    name: 'round',
    kind: 'scalar',
    arity: { min: 1, max: 2 },
    signature: 'round(x, digits?)',
    description:
      'x rounded to a number of decimal places (0 to 12; a whole number by default), halves away from zero: round(1.005, 2) is 1.01.',
  },
  {
    name: 'coalesce',
    kind: 'scalar',
    arity: { min: 2, max: null },
    signature: 'coalesce(a, b, ...)',
    description: 'The first of its arguments that is not missing.',
  },
  {
    name: 'clamp',
    kind: 'scalar',
    arity: { min: 3, max: 3 },
    signature: 'clamp(x, low, high)',
    description: 'x limited to the range from low to high.',
  },
  {
    name: 'if',
    kind: 'scalar',
    arity: { min: 3, max: 3 },
    signature: 'if(condition, a, b)',
    description: 'a when the condition is true, otherwise b (same as condition ? a : b).',
  },
];

/** Lookup by name through a Map (never an object: no prototype lookups). */
export const FUNCTION_MAP: ReadonlyMap<string, FunctionInfo> = new Map(FUNCTIONS.map((info) => [info.name, info]));
