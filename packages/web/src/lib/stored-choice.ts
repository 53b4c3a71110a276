import { useCallback, useState } from 'react';

/**
 * A small UI preference kept in localStorage. Stored values are not trusted: anything outside `allowed` reads as
 * `fallback`.
 */
export function readStoredChoice<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
  try {
    const value = window.localStorage.getItem(key);
    return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
  } catch {
    return fallback;
  }
}

export function useStoredChoice<T extends string>(key: string, allowed: readonly T[], fallback: T) {
  const [value, setValue] = useState<T>(() => readStoredChoice(key, allowed, fallback));
  const update = useCallback(
    (next: T) => {
      setValue(next);
      try {
        window.localStorage.setItem(key, next);
      } catch {
        // Storage unavailable: the choice lasts until the page is reloaded.
      }
    },
    [key],
  );
  return [value, update] as const;
}
