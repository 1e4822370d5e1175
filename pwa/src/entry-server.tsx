/**
 * Build-time prerender (scripts/prerender.ts, through Vite's SSR build): the same components as
 * the client, rendered to HTML once every lazy screen has loaded. Nothing here runs in a browser.
 */
import { StrictMode, type ReactNode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { Route, Routes, StaticRouter } from 'react-router-dom';
import { AppProviders } from './app/app';
import { AppRoutes } from './app/router';
import { Layout } from './app/layout';
import { PageSpinner } from './components/ui/spinner';

export function render(url: string): Promise<string> {
  return toHtml(
    <StaticRouter location={url}>
      <AppRoutes />
    </StaticRouter>,
  );
}

/**
 * The app shell's first screen for every route that is not prerendered: the header, a loading
 * main and the footer, painted before any script runs. The client renders the route from scratch
 * over it (it is not hydrated), with the same header in the same place.
 */
export function renderShell(): Promise<string> {
  return toHtml(
    <StaticRouter location="/">
      <Routes>
        <Route element={<Layout />}>
          <Route path="*" element={<PageSpinner />} />
        </Route>
      </Routes>
    </StaticRouter>,
  );
}

async function toHtml(tree: ReactNode): Promise<string> {
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <AppProviders>{tree}</AppProviders>
    </StrictMode>,
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
