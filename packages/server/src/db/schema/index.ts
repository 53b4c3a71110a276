export * from './audit.js';
export * from './auth.js';
export * from './email.js';
export * from './portal.js';
export * from './projects.js';
export * from './sessions.js';
export * from './terms.js';
export * from './users.js';
