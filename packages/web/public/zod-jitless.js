// The portal's Content-Security-Policy forbids eval. zod would otherwise probe for it with `new Function('')` when
// it builds its first object schema, which the browser reports as a CSP violation on every page. A classic script
// in index.html runs before the bundle, so every schema is built jitless; zod keeps this object as its config.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
