/**
 * Loads the ALTCHA web component in its strict-CSP build (DESIGN section 1): `altcha/external` ships no inline
 * styles and no workers made from blobs. The proof-of-work workers are emitted by Vite as files of their own
 * (served from 'self', so `script-src 'self'` covers them with `worker-src` unset), and only the Web Crypto
 * algorithms are registered: Argon2id and scrypt would need WebAssembly, i.e. `'wasm-unsafe-eval'`.
 * Imported lazily by Captcha.tsx, so pages without a captcha never download it.
 */
import 'altcha/external';
import 'altcha/altcha.css';
import './altcha-widget.css';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';
import ShaWorker from 'altcha/workers/sha?worker';

for (const hash of ['SHA-256', 'SHA-384', 'SHA-512']) {
  globalThis.$altcha.algorithms.set(hash, () => new ShaWorker());
  globalThis.$altcha.algorithms.set(`PBKDF2/${hash}`, () => new Pbkdf2Worker());
}
