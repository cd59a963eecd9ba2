/**
 * A page the web host closed for falling behind (it stopped reading its bridge) reloads,
 * reading everything anew with the session key its tab kept; any other close does not.
 * The browser's WebSocket is stood in for by one that opens, then is closed by the host
 * with the code given (the host's side is web-host-backpressure.test.ts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openSocket } from '@renderer/bridge/web-host-api';
import type { SerializedError } from '@shared/errors';
import { FELL_BEHIND_CODE } from '@shared/web-host-key';

function hostClosingWith(code: number): typeof WebSocket {
  return class extends EventTarget {
    static readonly OPEN = 1;
    readyState = 0;
    constructor() {
      super();
      setTimeout(() => {
        this.readyState = 1;
        this.dispatchEvent(new Event('open'));
        this.readyState = 3;
        this.dispatchEvent(Object.assign(new Event('close'), { code, reason: 'by the host' }));
      });
    }
    send(): void {
      // Nothing is read by this host.
    }
  } as unknown as typeof WebSocket;
}

async function closeOf(code: number): Promise<{ error: SerializedError; reloads: number }> {
  vi.stubGlobal('WebSocket', hostClosingWith(code));
  let reloads = 0;
  const port = openSocket('ws://127.0.0.1:1/bridge', 'session-key', () => reloads++);
  const error = await new Promise<SerializedError>((resolve) => {
    port.onClose(resolve);
  });
  return { error, reloads };
}

describe('the page when the host closes its bridge', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('reloads when the host says the page fell behind', async () => {
    const { error, reloads } = await closeOf(FELL_BEHIND_CODE);
    expect(reloads).toBe(1);
    expect(error.message).toMatch(/fell behind/);
  });

  it('does not reload on any other close', async () => {
    const { error, reloads } = await closeOf(1000);
    expect(reloads).toBe(0);
    expect(error.message).toMatch(/connection .* was lost/);
  });
});
