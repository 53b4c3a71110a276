import type { ExpressionNode } from './ast.js';

export interface ExplainOptions {
  /** Column labels by key, to say "Patient days" instead of patient_days. */
  labels?: ReadonlyMap<string, string> | Readonly<Record<string, string>>;
}

const PRECEDENCE: Record<string, number> = {
  '||': 1,
  '&&': 2,
  '==': 6,
  '!=': 6,
  '<': 7,
  '<=': 7,
  '>': 7,
  '>=': 7,
  '+': 9,
  '-': 9,
  '*': 10,
  '/': 10,
  '%': 10,
};

const PHRASES: Record<string, string> = {
  '||': ' or ',
  '&&': ' and ',
  '==': ' equals ',
  '!=': ' does not equal ',
  '<': ' is less than ',
  '<=': ' is at most ',
  '>': ' is more than ',
  '>=': ' is at least ',
  '+': ' plus ',
  '-': ' minus ',
  '*': ', times ',
  '/': ', divided by ',
  '%': ', modulo ',
};

function label(name: string, labels: ExplainOptions['labels']): string {
  if (!labels) return name;
  if (labels instanceof Map) return labels.get(name) ?? name;
  const record = labels as Readonly<Record<string, string>>;
  return Object.hasOwn(record, name) ? (record[name] ?? name) : name;
}

/** Readable English for an expression, e.g. for the "how is this computed" line under a chart. */
export function explainExpression(ast: ExpressionNode, options: ExplainOptions = {}): string {
  const say = (node: ExpressionNode): string => {
    switch (node.type) {
      case 'Literal':
        return typeof node.value === 'string' ? `'${node.value}'` : String(node.value);
      case 'Identifier':
        return label(node.name, options.labels);
      case 'UnaryExpression': {
        const inner = node.argument.type === 'BinaryExpression' ? `(${say(node.argument)})` : say(node.argument);
        if (node.operator === '!') return `not ${inner}`;
        return node.operator === '-' ? `minus ${inner}` : inner;
      }
      case 'BinaryExpression': {
        const own = PRECEDENCE[node.operator] ?? 0;
        const side = (child: ExpressionNode, right: boolean) => {
          const text = say(child);
          if (child.type === 'ConditionalExpression') return `(${text})`;
          if (child.type !== 'BinaryExpression') return text;
          const theirs = PRECEDENCE[child.operator] ?? 0;
          return theirs < own || (right && theirs === own) ? `(${text})` : text;
        };
        return `${side(node.left, false)}${PHRASES[node.operator] ?? ` ${node.operator} `}${side(node.right, true)}`;
      }
      case 'ConditionalExpression':
        return `if ${say(node.test)} then ${say(node.consequent)}, otherwise ${say(node.alternate)}`;
      case 'CallExpression': {
        const args = node.arguments.map(say);
        const [a, b, c] = args;
        switch (node.callee) {
          case 'count':
            return 'the number of rows';
          case 'countIf':
            return `the number of rows where ${a}`;
          case 'sum':
            return `the sum of ${a}`;
          case 'sumIf':
            return `the sum of ${a} over rows where ${b}`;
          case 'mean':
          case 'avg':
            return `the mean of ${a}`;
          case 'median':
            return `the median of ${a}`;
          case 'min':
            return `the smallest ${a}`;
          case 'max':
            return `the largest ${a}`;
          case 'distinctCount':
            return `the number of different values of ${a}`;
          case 'abs':
            return `the absolute value of ${a}`;
          case 'round':
            return b === undefined || b === '0'
              ? `${a} rounded to a whole number`
              : `${a} rounded to ${b} decimal places`;
          case 'coalesce':
            return `the first present value of ${args.join(', ')}`;
          case 'clamp':
            return `${a} limited to between ${b} and ${c}`;
          case 'if':
            return `if ${a} then ${b}, otherwise ${c}`;
        }
        return `${String(node.callee)}(${args.join(', ')})`;
      }
    }
  };
  return say(ast);
}
