import '@mantine/core/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/providers';
import { AppRouter } from './app/router';
import { preloadScreensFor } from './app/routes';
import { createQueryClient } from './lib/query-client';
import { installValidationMessages } from './lib/validation-messages';

installValidationMessages();

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
