import { MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { createQueryClient } from '../lib/query-client';
import { authCheckQueryOptions } from '../lib/session';
import { cssVariablesResolver, theme } from './theme';

// The toaster (sonner) is a chunk of its own, so the login page does not download it (bench/budgets.ts). A toast
// raised before it has mounted is not lost: sonner shows the active toasts to a Toaster when it subscribes.
const Toaster = lazy(() => import('sonner').then((module) => ({ default: module.Toaster })));

/**
 * Toasts are raised only by signed-in screens: the app mounts the toaster once the session is signed in, and keeps it
 * mounted after (a toast raised just before a sign-out stays on screen). Reads the session from the cache without
 * asking the server.
 */
function ToasterAfterSignIn({ children }: { children: ReactNode }) {
  const signedIn = useQuery({ ...authCheckQueryOptions(), enabled: false }).data?.authenticated === true;
  const [mounted, setMounted] = useState(signedIn);
  useEffect(() => {
    if (signedIn) setMounted(true);
  }, [signedIn]);
  return mounted ? children : null;
}

interface AppProvidersProps {
  children: ReactNode;
  /** The app passes the client its start-up prefetched into (main.tsx); tests their own (no retries, no shared cache). */
  queryClient?: QueryClient;
  /** 'after-sign-in' (the app): the toaster is downloaded and mounted once someone is signed in. Tests: always. */
  toaster?: 'always' | 'after-sign-in';
}

export function AppProviders({ children, queryClient, toaster = 'always' }: AppProvidersProps) {
  const [defaultClient] = useState(createQueryClient);
  // SPEC: toasts top-centre, 4000 ms, 3 visible, 356 px wide: all sonner defaults.
  const toasts = (
    <Suspense fallback={null}>
      <Toaster position="top-center" />
    </Suspense>
  );
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} forceColorScheme="light">
      <QueryClientProvider client={queryClient ?? defaultClient}>
        {children}
        {toaster === 'always' ? toasts : <ToasterAfterSignIn>{toasts}</ToasterAfterSignIn>}
      </QueryClientProvider>
    </MantineProvider>
  );
}
