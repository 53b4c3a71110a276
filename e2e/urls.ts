/** The two servers playwright.config.ts starts: one with demo data, one on an empty database. */
export const DEMO_URL = 'http://127.0.0.1:18081';
export const EMPTY_URL = 'http://127.0.0.1:18082';
