export * from './progress.js';
export * from './reliability.js';
export * from './sampling.js';
export * from './scoring.js';
