import type { ExpressionNode } from './ast.js';

/**
 * The canonical form of an AST: arrays in a fixed order, so it does not depend on key order (jsonb reorders keys) or
 * on the whitespace and parentheses of the text. `avg` is already `mean` in a parsed AST; normalised again here for
 * hand-built ones.
 */
function canonical(node: ExpressionNode): unknown {
  switch (node.type) {
    case 'Literal':
      return ['lit', typeof node.value, node.value];
    case 'Identifier':
      return ['col', node.name];
    case 'BinaryExpression':
      return ['bin', node.operator, canonical(node.left), canonical(node.right)];
    case 'UnaryExpression':
      return ['un', node.operator, canonical(node.argument)];
    case 'ConditionalExpression':
      return ['cond', canonical(node.test), canonical(node.consequent), canonical(node.alternate)];
    case 'CallExpression':
      return ['call', node.callee === 'avg' ? 'mean' : node.callee, ...node.arguments.map(canonical)];
  }
}

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK = 0xffffffffffffffffn;

/** 64-bit FNV-1a over the UTF-16 code units of a string, as 16 hex digits (pure: no Node crypto). */
export function fnv1a64(text: string): string {
  let hash = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * FNV_PRIME) & MASK;
  }
  return hash.toString(16).padStart(16, '0');
}

/** A stable hash of the canonical AST (the `formula_hash` stored with every computed point). */
export function expressionHash(ast: ExpressionNode): string {
  return fnv1a64(JSON.stringify(canonical(ast)));
}
