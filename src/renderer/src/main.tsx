import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { BridgeProvider, getBridge } from './bridge';
import { createQueryClient } from './queries/client';
import './styles.css';

const container = document.getElementById('root');
if (container === null) throw new Error('index.html lacks the #root element');
const queryClient = createQueryClient();
createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BridgeProvider client={getBridge()}>
        <App />
      </BridgeProvider>
    </QueryClientProvider>
  </StrictMode>,
);
