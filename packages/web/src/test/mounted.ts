import { act } from 'react';
import type { Root } from 'react-dom/client';

/**
 * Roots rendered by the current test, unmounted after each test by setup.ts. Kept apart from render.tsx so the
 * setup file does not import the app (a module imported there would escape the test files' vi.mock).
 */
export const mounted = new Set<Root>();

export function unmountAll(): void {
  for (const root of mounted) act(() => root.unmount());
  mounted.clear();
}
