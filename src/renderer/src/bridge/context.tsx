import { createContext, useContext, type ReactNode } from 'react';
import type { BridgeClient } from '@shared/contract';

const BridgeContext = createContext<BridgeClient | null>(null);

/** Provides the bridge to components; tests render them with a fake client instead. */
export function BridgeProvider(props: {
  client: BridgeClient;
  children: ReactNode;
}): React.JSX.Element {
  return <BridgeContext.Provider value={props.client}>{props.children}</BridgeContext.Provider>;
}

export function useBridge(): BridgeClient {
  const client = useContext(BridgeContext);
  if (client === null) throw new Error('useBridge() needs a <BridgeProvider> above it');
  return client;
}
