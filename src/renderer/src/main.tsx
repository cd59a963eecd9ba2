import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { BridgeProvider, getBridge } from './bridge';
import './styles.css';

const container = document.getElementById('root');
if (container === null) throw new Error('index.html lacks the #root element');
const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, staleTime: 10_000, refetchOnWindowFocus: false } },
});
createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BridgeProvider client={getBridge()}>
        <App />
      </BridgeProvider>
    </QueryClientProvider>
  </StrictMode>,
);
