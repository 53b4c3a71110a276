export * from './errors.js';
export * from './password.js';
export * from './patterns.js';
export * from './roles.js';
export * from './sanitize.js';
export * from './schemas/common.js';
export * from './schemas/terms.js';
export * from './schemas/users.js';
