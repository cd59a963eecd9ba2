import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { BridgeProvider, getBridge, SessionStatus } from './bridge';
import './styles.css';

const container = document.getElementById('root');
if (container === null) throw new Error('index.html lacks the #root element');
const queryClient = new QueryClient();
createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BridgeProvider client={getBridge()}>
        <App />
        {/* Until the shell's top bar takes it over: the signed-in user, from main. */}
        <div style={{ position: 'fixed', right: 8, bottom: 4, fontSize: 12, opacity: 0.8 }}>
          <SessionStatus />
        </div>
      </BridgeProvider>
    </QueryClientProvider>
  </StrictMode>,
);
