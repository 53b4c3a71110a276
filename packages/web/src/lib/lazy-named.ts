import type { QueryClient } from '@tanstack/react-query';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/**
 * What an app's chunk may export as `prefetchScreen`: given the address a page was opened on, it asks at once for
 * that screen's chunk and its first answer, instead of after the frame and the app's guards have rendered
 * (app/routes.tsx preloadScreensFor).
 */
export type ScreenPrefetch = (pathname: string, queryClient: QueryClient) => void;

// biome-ignore lint/suspicious/noExplicitAny: any component with any props, as React.lazy itself accepts.
type AnyComponent = ComponentType<any>;

const loaders = new Set<() => Promise<unknown>>();

/**
 * `React.lazy` for a named export: the screen becomes a chunk of its own, downloaded when it first renders (under a
 * Suspense boundary). Keeps the login page and each app's first screen small (bench/budgets.ts).
 */
export function lazyNamed<K extends string, M extends Record<K, AnyComponent>>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<M[K]> & { preload: () => Promise<M | undefined> } {
  let loaded: M | undefined;
  const loadAndKeep = () =>
    load().then((module) => {
      loaded = module;
      return module;
    });
  loaders.add(loadAndKeep);
  const component = lazy(() => {
    if (loaded) {
      // Already here (preloadLazyScreens): a thenable that answers at once, and React renders without suspending.
      const settled = { default: loaded[name] };
      // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose (React reads one that settles at once).
      return { then: (resolve: (value: typeof settled) => void) => resolve(settled) } as Promise<typeof settled>;
    }
    return loadAndKeep().then((module) => ({ default: module[name] }));
  });
  // Fetches the chunk ahead of the first render; a failure is left to that render (and its error page).
  const preload = () => loadAndKeep().catch(() => undefined);
  return Object.assign(component, { preload });
}

/**
 * Loads every lazy screen now, and the screens those declare in turn. Tests call it before rendering routes, so the
 * screens render at once, as they did when they were imported up front.
 */
export async function preloadLazyScreens(): Promise<void> {
  const done = new Set<() => Promise<unknown>>();
  while (done.size < loaders.size) {
    const pending = [...loaders].filter((load) => !done.has(load));
    for (const load of pending) done.add(load);
    await Promise.all(pending.map((load) => load()));
  }
}
