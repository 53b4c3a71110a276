export * from './rollup.js';
export * from './vocabulary.js';
