/**
 * The page takes the launch key out of its address at once (out of the address bar and
 * the tab's history entry), trades it for a session key, and keeps only the session key,
 * in the tab's storage, for reloads. The launch key is never stored: once exchanged it is
 * worth nothing, and the browser's history still has it.
 */
import { describe, expect, it } from 'vitest';
import {
  KEY_STORAGE,
  sessionKeyOf,
  takeLaunchKey,
  type Exchange,
  type PageWindow,
} from '@renderer/bridge/web-host-api';

function page(hash: string, stored: Record<string, string> = {}, storageWorks = true) {
  const replaced: string[] = [];
  const storage = { ...stored };
  const window: PageWindow = {
    location: { hash, pathname: '/work-requests', search: '?q=1' },
    history: {
      state: null,
      replaceState: (_state: unknown, _unused: string, url?: string | URL | null) => {
        replaced.push(String(url));
      },
    },
    sessionStorage: {
      getItem: (k) => {
        if (!storageWorks) throw new Error('denied');
        return storage[k] ?? null;
      },
      setItem: (k, v) => {
        if (!storageWorks) throw new Error('denied');
        storage[k] = v;
      },
    },
  };
  return { window, replaced, storage };
}

/** An exchange that answers from a table, recording what it was given. */
function exchanger(answers: Record<string, Awaited<ReturnType<Exchange>>>) {
  const given: string[] = [];
  const exchange: Exchange = (launch) => {
    given.push(launch);
    return Promise.resolve(answers[launch] ?? { refused: true });
  };
  return { exchange, given };
}

describe('the launch key', () => {
  it('is taken from the fragment, which leaves the address at once', () => {
    const p = page('#key=abc_-123');
    expect(takeLaunchKey(p.window)).toBe('abc_-123');
    expect(p.replaced).toEqual(['/work-requests?q=1']);
    // Nothing is kept of it: it is exchanged, not stored.
    expect(p.storage).toEqual({});
  });

  it('keeps the rest of the fragment', () => {
    const p = page('#key=k&section=x');
    expect(takeLaunchKey(p.window)).toBe('k');
    expect(p.replaced).toEqual(['/work-requests?q=1#section=x']);
  });

  it('is absent from an address without one, which is left alone', () => {
    const p = page('#section=x');
    expect(takeLaunchKey(p.window)).toBeNull();
    expect(p.replaced).toEqual([]);
  });
});

describe('the tab’s session key', () => {
  it('is the launch key’s exchange, kept for reloads', async () => {
    const p = page('#key=launch');
    const { exchange, given } = exchanger({ launch: { key: 'session' } });
    await expect(sessionKeyOf(p.window, exchange)).resolves.toEqual({ key: 'session' });
    expect(given).toEqual(['launch']);
    expect(p.storage).toEqual({ [KEY_STORAGE]: 'session' });
  });

  it('comes from the tab’s storage on a reload, with no exchange', async () => {
    const p = page('', { [KEY_STORAGE]: 'kept' });
    const { exchange, given } = exchanger({});
    await expect(sessionKeyOf(p.window, exchange)).resolves.toEqual({ key: 'kept' });
    expect(given).toEqual([]);
  });

  it('is refused for a used address, and says to open the newest one', async () => {
    const result = await sessionKeyOf(page('#key=used').window, exchanger({}).exchange);
    expect(result).toMatchObject({ error: { code: 'network' } });
    expect('error' in result && result.error.message).toContain('newest address');
    // A tab that has its session already keeps it, whatever its address says.
    const kept = page('#key=used', { [KEY_STORAGE]: 'kept' });
    await expect(sessionKeyOf(kept.window, exchanger({}).exchange)).resolves.toEqual({
      key: 'kept',
    });
  });

  it('says the host is unreachable when the exchange cannot be made', async () => {
    const { exchange } = exchanger({ launch: { unreachable: true } });
    const result = await sessionKeyOf(page('#key=launch').window, exchange);
    expect('error' in result && result.error.message).toContain('not running');
  });

  it('is absent without a key in the address or the tab', async () => {
    const result = await sessionKeyOf(page('').window, exchanger({}).exchange);
    expect('error' in result && result.error.message).toContain('#key=');
  });

  it('still works for this load when storage is refused', async () => {
    const p = page('#key=launch', {}, false);
    const { exchange } = exchanger({ launch: { key: 'session' } });
    await expect(sessionKeyOf(p.window, exchange)).resolves.toEqual({ key: 'session' });
    expect(p.replaced).toHaveLength(1);
  });
});
