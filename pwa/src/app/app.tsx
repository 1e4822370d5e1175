import { useState } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { createPersistOptions, createQueryClient } from '../lib/query-client';
import { AppRoutes } from './router';

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [persistOptions] = useState(createPersistOptions);
  return (
    <PersistQueryClientProvider client={queryClient} persistOptions={persistOptions}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </PersistQueryClientProvider>
  );
}
