export * from './coverage.js';
export * from './generate.js';
export * from './render.js';
export * from './vocabulary.js';
