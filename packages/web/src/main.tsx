import '@mantine/core/styles.css';
import { validationMessage } from '@portal/shared';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { config as zodConfig } from 'zod/v4/core';
import { AppProviders } from './app/providers';
import { AppRouter } from './app/router';
import { preloadScreensFor } from './app/routes';
import { createQueryClient } from './lib/query-client';

// Every form's messages in the portal's words (issue 32): zod's config only, not zod itself (decision record 030).
zodConfig({ customError: validationMessage });

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const queryClient = createQueryClient();
preloadScreensFor(window.location.pathname, queryClient);

createRoot(container).render(
  <StrictMode>
    <AppProviders queryClient={queryClient} toaster="after-sign-in">
      <AppRouter />
    </AppProviders>
  </StrictMode>,
);
