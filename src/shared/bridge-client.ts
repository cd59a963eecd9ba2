/**
 * The renderer's typed client: the DebusineApi's methods, resolving to results and
 * rethrowing a failed Reply as a DebusineError with its code, so react-query's handlers and
 * components can act on `error.code`.
 */
import type { BridgeClient, DebusineApi, Reply } from './contract';
// Names from the zod-free list: the renderer's bundle needs no argument schemas.
import { LOCAL_METHODS, REQUEST_CHANNELS, splitChannel } from './contract-names';
import { DebusineError } from './errors';

export function unwrap<R>(reply: Reply<R>): R {
  if (reply.ok) return reply.result;
  throw DebusineError.fromJSON(reply.error);
}

type AnyMethod = (...args: unknown[]) => Promise<Reply<unknown>>;

export function createBridgeClient(api: DebusineApi): BridgeClient {
  const raw = api as unknown as Record<string, Record<string, AnyMethod>>;
  const client: Record<string, unknown> = { on: api.on.bind(api) };
  for (const channel of [...REQUEST_CHANNELS, ...LOCAL_METHODS]) {
    const [namespace, method] = splitChannel(channel);
    const target = raw[namespace]?.[method];
    if (typeof target !== 'function') {
      throw new Error(`The bridge lacks ${channel}: preload and contract disagree`);
    }
    const group = (client[namespace] ??= {}) as Record<string, unknown>;
    group[method] = async (...args: unknown[]) => unwrap(await target(...args));
  }
  // Built from the same name lists as the BridgeClient type.
  return client as unknown as BridgeClient;
}
