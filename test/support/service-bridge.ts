/**
 * The real service behind the in-memory bridge, as the renderer sees it: requests through
 * the bridge client, and every event main sends recorded so that a test can wait for one
 * that may already have arrived.
 */
import { createBridgeClient } from '../../src/shared/bridge-client';
import type { BridgeClient, EventChannel, EventPayload } from '../../src/shared/contract';
import { memoryBridge, testService } from './memory-bridge';
import type { TestServer } from './sandbox';

/** What signing in needs of a sandbox's description (the bench has its own). */
export type SignInTarget = Pick<TestServer, 'apiUrl' | 'scope'> & {
  workspaces: Pick<TestServer['workspaces'], 'default'>;
  users: { owner: Pick<TestServer['users']['owner'], 'token'> };
};

export interface ServiceBridge {
  made: Awaited<ReturnType<typeof testService>>;
  api: BridgeClient;
  /** Every event so far, oldest first. */
  seen: { event: EventChannel; payload: unknown }[];
  /** The first event of this channel that matches, already seen or yet to come. */
  waitEvent: <E extends EventChannel>(
    event: E,
    match: (payload: EventPayload<E>) => boolean,
    timeoutMs?: number,
  ) => Promise<EventPayload<E>>;
  /** Every recorded event of this channel. */
  eventsOf: <E extends EventChannel>(event: E) => EventPayload<E>[];
  /** Adds the server as "Sandbox", signs in as its owner, and waits for the websocket. */
  signIn: (server: SignInTarget) => Promise<void>;
  close(): Promise<void>;
}

export async function serviceBridge(
  options: Parameters<typeof testService>[0] = {},
  events: readonly EventChannel[] = [],
): Promise<ServiceBridge> {
  const made = await testService(options);
  await made.service.start();
  const bridge = memoryBridge(made.handlers);
  // The service's events go to the bridge's hub, as in the web host.
  made.hub.listen((m) => {
    bridge.hub.emit(m.event, m.payload);
  });
  const api = createBridgeClient(bridge.api);
  const seen: ServiceBridge['seen'] = [];
  for (const event of events) api.on(event, (payload) => seen.push({ event, payload }));

  function waitEvent<E extends EventChannel>(
    event: E,
    match: (payload: EventPayload<E>) => boolean,
    timeoutMs = 60_000,
  ): Promise<EventPayload<E>> {
    if (!events.includes(event)) throw new Error(`${event} is not recorded by this bridge`);
    const found = seen.find((e) => e.event === event && match(e.payload as EventPayload<E>));
    if (found) return Promise.resolve(found.payload as EventPayload<E>);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new Error(`No ${event} within ${String(timeoutMs)} ms`));
      }, timeoutMs);
      const off = api.on(event, (payload) => {
        if (!match(payload)) return;
        clearTimeout(timer);
        off();
        resolve(payload);
      });
    });
  }

  return {
    made,
    api,
    seen,
    waitEvent,
    eventsOf: <E extends EventChannel>(event: E) =>
      seen.filter((e) => e.event === event).map((e) => e.payload as EventPayload<E>),
    async signIn(server) {
      await api.servers.add({
        name: 'Sandbox',
        apiUrl: server.apiUrl,
        scope: server.scope,
        defaultWorkspace: server.workspaces.default,
      });
      await api.session.signInWithToken({ serverId: 'sandbox', token: server.users.owner.token });
      await waitEvent('connection.state', (c) => c.status === 'connected', 30_000);
    },
    async close() {
      await bridge.close();
      await made.close();
    },
  };
}
