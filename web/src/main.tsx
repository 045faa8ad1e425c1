import { CssBaseline } from '@mui/material';
import { ThemeProvider } from '@mui/system';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, useRoutes } from 'react-router';
import { prefetchFirstScreen } from './app/prefetch.js';
import { preloadPage, routes } from './app/router.js';
import { createAppTheme } from './app/theme.js';
import { askAgainOnMount, worthRetrying } from './lib/api.js';
import { nextTask } from './lib/nextTask.js';

const STALE_MS = 30_000;
const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: STALE_MS,
      refetchOnWindowFocus: false,
      retry: worthRetrying,
      retryOnMount: (query) => askAgainOnMount(query.state, STALE_MS),
    },
    mutations: {
      // A write is a reader's act: sent at once, offline too, so that it fails at once with its
      // own message. React Query's default held it while offline, silent, and sent it when the
      // network came back (a like applied minutes later, unasked): see ARCHITECTURE.md.
      networkMode: 'always',
    },
  },
});

function App() {
  return useRoutes(routes);
}

/** The longest the server's first screen waits for the page's chunk and data before React. */
const FIRST_SCREEN_WAIT_MS = 5000;

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root element');
const { pathname } = window.location;
// index.html may carry a first screen the server drew (server/src/plugins/first-screen.ts):
// static HTML in #root, and the API answer it was drawn from.
const firstScreenReady = Promise.all([
  prefetchFirstScreen(
    queryClient,
    pathname,
    document.getElementById('first-screen-data')?.textContent ?? null,
  ),
  // A failed chunk is the page's to report, when it asks for it again.
  preloadPage(pathname).catch(() => undefined),
]);
const timeout = new Promise((resolve) => setTimeout(resolve, FIRST_SCREEN_WAIT_MS));

async function start(container: HTMLElement): Promise<void> {
  await Promise.race([firstScreenReady, timeout]);
  // Each step in a task of its own: this module's evaluation (the core chunk's, in fact), the
  // theme, the render. Together they were one task of 70–120 ms on a desktop, four times that
  // on a phone (goal 8: total blocking time).
  await nextTask();
  // MUI's own ThemeProvider also brings the CSS-variables provider (color schemes, its script),
  // for themes this app does not use; for a theme without CSS variables it draws exactly this:
  // the system's provider, with `vars: null` (goal 8: first-load JavaScript).
  const theme = { ...createAppTheme(), vars: null };
  await nextTask();
  // With the page's chunk and data at hand, React's first commit replaces the server's first
  // screen with the same picture at the same place: no spinner in between, nothing moves.
  // As a transition the render works in slices of a few milliseconds, so the phone is never
  // blocked long while it runs (goal 8: total blocking time); the commit itself is one piece.
  startTransition(() => {
    createRoot(container).render(
      <StrictMode>
        <ThemeProvider theme={theme}>
          <CssBaseline />
          <QueryClientProvider client={queryClient}>
            <BrowserRouter>
              <App />
            </BrowserRouter>
          </QueryClientProvider>
        </ThemeProvider>
      </StrictMode>,
    );
  });
}

void start(root);
