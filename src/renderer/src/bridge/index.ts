/**
 * The renderer's one way to main: `window.debusine` where the preload exposed it
 * (Electron), otherwise the web host's WebSocket.
 */
import type { BridgeClient } from '@shared/contract';
import { createBridgeClient } from '@shared/bridge-client';
import { connectWebHost } from './web-host-api';

export { createBridgeClient, unwrap } from '@shared/bridge-client';
export { BridgeProvider, useBridge } from './context';

let bridge: BridgeClient | undefined;

export function getBridge(): BridgeClient {
  bridge ??= createBridgeClient(window.debusine ?? connectWebHost(window));
  return bridge;
}
