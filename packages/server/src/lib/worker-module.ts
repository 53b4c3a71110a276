import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** What `new Worker(filename, { eval })` needs to run a module of ours in a worker thread. */
export interface WorkerModule {
  filename: URL | string;
  eval: boolean;
}

/**
 * The worker module `name` beside `importMetaUrl`, in the same form: the compiled .js when the caller is compiled,
 * the .ts source under tsx or vitest (chosen by the caller's own extension, so a stray compiled .js next to the
 * sources is never picked). A worker shares no loader hooks with its parent, and on Node 20 `--import tsx` in a
 * worker's execArgv registers nothing, so for the .ts a small bootstrap registers tsx's ESM hooks inside the worker
 * and then imports the file.
 */
export function workerModule(importMetaUrl: string, name: string): WorkerModule {
  const compiled = new URL(importMetaUrl).pathname.endsWith('.js');
  const file = new URL(`./${name}.${compiled ? 'js' : 'ts'}`, importMetaUrl);
  if (!existsSync(file)) throw new Error(`The worker ${file.href} is missing.`);
  if (compiled) return { filename: file, eval: false };
  const require = createRequire(importMetaUrl);
  const manifest = require.resolve('tsx/package.json');
  const exports = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, unknown> }).exports;
  const api = (exports['./esm/api'] as { import: { default: string } }).import.default;
  const register = pathToFileURL(path.join(path.dirname(manifest), api)).href;
  return {
    filename: `import(${JSON.stringify(register)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(file.href)}); });`,
    eval: true,
  };
}
