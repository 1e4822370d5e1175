import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { registerServiceWorker } from './app/sw-register';
import './styles/index.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

registerServiceWorker();
// The IndexedDB mirror is reconciled after first paint; it only matters when a key was lost.
void import('./lib/hydrate')
  .then(({ hydrateLocalState }) => hydrateLocalState())
  .catch((err: unknown) => console.warn('Could not restore the saved cart', err));
