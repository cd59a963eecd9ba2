import { describe, expect, it } from 'vitest';
import type { ServiceHandlers } from '../../src/main/bridge/dispatch';
import { createBridgeClient } from '../../src/shared/bridge-client';
import {
  EVENT_CHANNELS,
  REQUEST_CHANNELS,
  requests,
  splitChannel,
  type RequestChannel,
} from '../../src/shared/contract';
import { DebusineError } from '../../src/shared/errors';
import { memoryBridge } from '../support/memory-bridge';
import { SAMPLE_ARGS } from './bridge-samples';
import { testCaller } from '../support/caller';

/** A service that answers every request with what it received, after parsing. */
function echoService(): ServiceHandlers {
  return Object.fromEntries(
    REQUEST_CHANNELS.map((channel) => [
      channel,
      (args: unknown) => Promise.resolve({ channel, args }),
    ]),
  ) as unknown as ServiceHandlers;
}

function call(api: unknown, channel: RequestChannel, args: unknown): Promise<unknown> {
  const [namespace, method] = splitChannel(channel);
  const group = (api as Record<string, Record<string, (a: unknown) => Promise<unknown>>>)[
    namespace
  ];
  const fn = group?.[method];
  if (!fn) throw new Error(`no method for ${channel}`);
  return fn(args);
}

describe('the contract over an in-memory transport', () => {
  it('names the same requests and events in both tables', () => {
    expect(Object.keys(requests).sort()).toEqual([...REQUEST_CHANNELS].sort());
    expect(new Set(REQUEST_CHANNELS).size).toBe(REQUEST_CHANNELS.length);
    expect(new Set(EVENT_CHANNELS).size).toBe(EVENT_CHANNELS.length);
    for (const name of [...REQUEST_CHANNELS, ...EVENT_CHANNELS]) {
      expect(name).toMatch(/^[a-z][A-Za-z]*\.[a-z][A-Za-z]*$/);
    }
  });

  it.each(REQUEST_CHANNELS)('round-trips %s', async (channel) => {
    const { api } = memoryBridge(echoService());
    const client = createBridgeClient(api);
    const args = SAMPLE_ARGS[channel];
    const parsed = requests[channel].args.parse(args) as unknown;
    await expect(call(client, channel, args)).resolves.toEqual(
      JSON.parse(JSON.stringify({ channel, args: parsed })),
    );
  });

  it('rethrows errors as DebusineError with their code and details', async () => {
    const service = echoService();
    service['workRequests.get'] = () =>
      Promise.reject(new DebusineError('not-found', 'No such work request', { status: 404 }));
    service['workRequests.retry'] = () => Promise.reject(new Error('a bug'));
    const client = createBridgeClient(memoryBridge(service).api);
    const error = await client.workRequests.get({ id: 9 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DebusineError);
    expect(error).toMatchObject({
      code: 'not-found',
      message: 'No such work request',
      details: { status: 404 },
    });
    await expect(client.workRequests.retry({ id: 9 })).rejects.toMatchObject({
      code: 'internal',
      message: 'a bug',
    });
  });

  it('refuses unknown channels and bad arguments before the service sees them', async () => {
    const seen: string[] = [];
    const service = echoService();
    service['workRequests.get'] = (args) => {
      seen.push(JSON.stringify(args));
      return Promise.reject(new Error('not reached'));
    };
    const { api } = memoryBridge(service);
    const raw = api as unknown as Record<string, Record<string, (a: unknown) => Promise<unknown>>>;
    await expect(raw.workRequests?.get?.({ id: 'one' })).resolves.toMatchObject({
      ok: false,
      error: { code: 'validation', details: { operation: 'workRequests.get', field: 'id' } },
    });
    await expect(raw.workRequests?.get?.({ id: 1, path: '/etc/passwd' })).resolves.toMatchObject({
      ok: false,
      error: { code: 'validation' },
    });
    await expect(raw.workRequests?.get?.(undefined)).resolves.toMatchObject({
      ok: false,
      error: { code: 'validation' },
    });
    expect(seen).toEqual([]);
  });

  it('answers unknown channels with a validation error', async () => {
    const { createDispatcher } = await import('../../src/main/bridge/dispatch');
    const dispatch = createDispatcher(echoService());
    const caller = testCaller();
    await expect(dispatch('fs.readFile', { path: '/etc/shadow' }, caller)).resolves.toMatchObject({
      ok: false,
      error: { code: 'validation', message: 'Unknown request: "fs.readFile"' },
    });
    await expect(dispatch('__proto__', {}, caller)).resolves.toMatchObject({ ok: false });
    await expect(dispatch(42, {}, caller)).resolves.toMatchObject({ ok: false });
  });

  it('keeps events until the renderer is ready, then delivers them in order', async () => {
    const { api, hub } = memoryBridge(echoService());
    const client = createBridgeClient(api);
    for (let id = 1; id <= 3; id++) hub.emit('workRequests.changed', { ids: [id] });
    hub.emit('app.navigate', { kind: 'artifact', id: 4, server: null });
    const received: unknown[] = [];
    client.on('workRequests.changed', (p) => received.push(p.ids[0]));
    client.on('app.navigate', (p) => received.push(`${p.kind}:${'id' in p ? String(p.id) : ''}`));
    await expect.poll(() => received.length).toBe(4);
    hub.emit('workRequests.changed', { ids: [5] });
    await expect.poll(() => received.length).toBe(5);
    expect(received).toEqual([1, 2, 3, 'artifact:4', 5]);
  });

  it('stops delivering to a listener after it unsubscribes', async () => {
    const { api, hub } = memoryBridge(echoService());
    const seen: number[] = [];
    const off = api.on('workRequests.changed', (p) => seen.push(...p.ids));
    hub.emit('workRequests.changed', { ids: [1] });
    await expect.poll(() => seen).toEqual([1]);
    off();
    hub.emit('workRequests.changed', { ids: [2] });
    await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual([1]);
  });

  it('fails pending and later calls with a network error once the transport closes', async () => {
    const service = echoService();
    service['session.whoami'] = () => new Promise(() => undefined);
    const bridge = memoryBridge(service);
    const client = createBridgeClient(bridge.api);
    const pending = client.session.whoami();
    await new Promise((r) => setTimeout(r, 5));
    void bridge.close();
    await expect(pending).rejects.toMatchObject({ code: 'network' });
    await expect(client.app.info()).rejects.toMatchObject({ code: 'network' });
  });
});
