import '@mantine/core/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/providers';
import { AppRouter } from './app/router';
import { preloadScreensFor } from './app/routes';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
preloadScreensFor(window.location.pathname);

createRoot(container).render(
  <StrictMode>
    <AppProviders toaster="after-sign-in">
      <AppRouter />
    </AppProviders>
  </StrictMode>,
);
