/**
 * The monitoring expression language (DOMAIN.md 1.3 "Formula builder: safe by construction", issue 9 part a):
 * parse and check with jsep plus a strict whitelist, evaluate per row or per period, explain in English, hash.
 */
export * from './ast.js';
export * from './evaluate.js';
export * from './explain.js';
export * from './hash.js';
export * from './parse.js';
