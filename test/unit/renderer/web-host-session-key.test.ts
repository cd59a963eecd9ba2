import { describe, expect, it } from 'vitest';
import { KEY_STORAGE, takeSessionKey, type PageWindow } from '@renderer/bridge/web-host-api';

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

describe('the web page’s session key', () => {
  it('is taken from the fragment, which leaves the address; the tab keeps it for reloads', () => {
    const p = page('#key=abc_-123');
    expect(takeSessionKey(p.window)).toBe('abc_-123');
    expect(p.replaced).toEqual(['/work-requests?q=1']);
    expect(p.storage).toEqual({ [KEY_STORAGE]: 'abc_-123' });
  });

  it('keeps the rest of the fragment', () => {
    const p = page('#key=k&section=x');
    expect(takeSessionKey(p.window)).toBe('k');
    expect(p.replaced).toEqual(['/work-requests?q=1#section=x']);
  });

  it('comes from the tab’s storage on a reload, and is absent otherwise', () => {
    const reload = page('', { [KEY_STORAGE]: 'kept' });
    expect(takeSessionKey(reload.window)).toBe('kept');
    expect(reload.replaced).toEqual([]);
    expect(takeSessionKey(page('').window)).toBeNull();
  });

  it('still works for this load when storage is refused', () => {
    const p = page('#key=k', {}, false);
    expect(takeSessionKey(p.window)).toBe('k');
    expect(p.replaced).toHaveLength(1);
    expect(takeSessionKey(page('', {}, false).window)).toBeNull();
  });
});
