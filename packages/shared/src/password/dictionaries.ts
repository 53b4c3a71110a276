/**
 * Lazy zxcvbn-ts set-up. The core and the language packages (~1.5 MB of word lists before minification) are loaded
 * with `import()` only when `loadPasswordDictionaries` is called, so a bundle that merely imports the password rules
 * does not contain them: the web loads them on the reset-password page, the server once at start-up.
 */
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

let zxcvbn: ZxcvbnFactory | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads the zxcvbn-ts dictionaries (language-common + language-en) and keyboard graphs (language-common) and sets up
 * the checker used by `evaluatePassword`. Idempotent: every call returns the same promise. If loading fails (e.g. a
 * chunk could not be fetched), the promise rejects and the next call tries again.
 */
export function loadPasswordDictionaries(): Promise<void> {
  if (loading) return loading;
  const attempt = Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]).then(([core, common, en]) => {
    zxcvbn = new core.ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...en.dictionary },
      graphs: common.adjacencyGraphs,
      translations: en.translations,
      // Off: near-miss matching over ~236,000 words took 0.4-5 s per check (docs/decisions/005-password-strength.md).
      useLevenshteinDistance: false,
    });
  });
  loading = attempt;
  attempt.catch(() => {
    if (loading === attempt) loading = undefined;
  });
  return attempt;
}

/** The configured checker, or undefined while `loadPasswordDictionaries` has not completed. */
export function loadedZxcvbn(): ZxcvbnFactory | undefined {
  return zxcvbn;
}
