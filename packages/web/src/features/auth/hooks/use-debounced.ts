import { useEffect, useState } from 'react';

/** `value`, once it has stopped changing for `delayMs` (SPEC section 9: the terms lookup waits 500 ms). */
export function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}
