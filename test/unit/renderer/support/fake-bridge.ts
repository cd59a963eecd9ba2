/**
 * A BridgeClient for renderer tests: the real client (createBridgeClient) over an API whose
 * answers come from the handlers a test gives, so failures arrive as DebusineErrors with
 * their codes, as from main. A request without a handler fails with `internal`, naming
 * it, except app.info, which answers as the web host does unless a test says otherwise;
 * `emit` plays an event from main.
 */
import { createBridgeClient } from '@shared/bridge-client';
import type {
  AppInfo,
  BridgeClient,
  DebusineApi,
  EventChannel,
  EventPayload,
  RequestArgs,
  RequestChannel,
  RequestResult,
} from '@shared/contract';
import { serializeError } from '@shared/errors';

export type FakeHandlers = {
  [C in RequestChannel]?: (args: RequestArgs<C>) => RequestResult<C> | Promise<RequestResult<C>>;
};

export interface FakeBridge {
  client: BridgeClient;
  /** Every request made, in order: its channel and arguments. */
  calls: { channel: string; args: unknown }[];
  emit<E extends EventChannel>(event: E, payload: EventPayload<E>): void;
}

/** What the web host's main says of itself. */
export const WEB_HOST_INFO: AppInfo = {
  name: 'Debusine Desktop',
  version: '0.0.0-test',
  platform: 'linux',
  capabilities: {
    saveDownload: 'browser',
    dropFolders: 'page',
    completionCommand: 'file',
    notifications: 'browser',
  },
};

export function fakeBridge(given: FakeHandlers): FakeBridge {
  const handlers: FakeHandlers = { 'app.info': () => WEB_HOST_INFO, ...given };
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const calls: FakeBridge['calls'] = [];
  const call = async (channel: string, args: unknown): Promise<unknown> => {
    calls.push({ channel, args });
    const handler = (handlers as Record<string, ((a: unknown) => unknown) | undefined>)[channel];
    if (!handler) {
      return { ok: false, error: { code: 'internal', message: `no fake for ${channel}` } };
    }
    try {
      return { ok: true, result: await handler(args) };
    } catch (error) {
      return { ok: false, error: serializeError(error) };
    }
  };
  const on = (event: string, listener: (payload: unknown) => void): (() => void) => {
    const set = listeners.get(event) ?? new Set();
    listeners.set(event, set);
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  };
  const namespace = (name: string): object =>
    new Proxy(
      {},
      {
        get: (_target, method) => (args: unknown) => call(`${name}.${String(method)}`, args),
      },
    );
  const api = new Proxy(
    {},
    {
      get: (_target, key) => {
        if (key === 'on') return on;
        return namespace(String(key));
      },
    },
  ) as DebusineApi;
  return {
    client: createBridgeClient(api),
    calls,
    emit(event, payload) {
      for (const listener of listeners.get(event) ?? []) listener(payload);
    },
  };
}
