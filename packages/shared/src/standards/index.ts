export * from './rollup.js';
export * from './safer.js';
export * from './vocabulary.js';
