/**
 * In a browser, app.openExternal is the page's to answer: an http(s) address opens in a new
 * tab that gets no handle on the app's page and no referrer, anything else opens nothing,
 * and main (which cannot open a browser from the web host) is never asked.
 */
import { describe, expect, it } from 'vitest';
import { openInNewTab, pageRequests, type OpenWindow } from '@renderer/bridge/web-host-api';
import { createMessageApi, type MessagePort } from '@shared/bridge-message-api';
import { createBridgeClient } from '@shared/bridge-client';

function recorder(): { open: OpenWindow; opened: [string, string, string][] } {
  const opened: [string, string, string][] = [];
  return {
    opened,
    open: (url, target, features) => {
      opened.push([url, target, features]);
      return null;
    },
  };
}

describe('opening a link from the app in a browser', () => {
  it('opens http and https addresses in a new tab, noopener and noreferrer', () => {
    const { open, opened } = recorder();
    expect(openInNewTab(open, 'https://example.org/docs?x=1#y')).toEqual({
      ok: true,
      result: undefined,
    });
    expect(openInNewTab(open, 'http://deb.debian.org/debian')).toEqual({
      ok: true,
      result: undefined,
    });
    expect(opened).toEqual([
      ['https://example.org/docs?x=1#y', '_blank', 'noopener,noreferrer'],
      ['http://deb.debian.org/debian', '_blank', 'noopener,noreferrer'],
    ]);
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:window.opener.x=1',
    'file:///etc/passwd',
    'data:text/html,<script>1</script>',
    'ftp://example.org/x',
    'about:blank',
    'not an address',
    'http://',
  ])('opens nothing for %s, and says why', (address) => {
    const { open, opened } = recorder();
    const reply = openInNewTab(open, address);
    expect(reply.ok).toBe(false);
    if (!reply.ok) expect(reply.error.code).toBe('validation');
    expect(opened).toEqual([]);
  });

  it('is answered by the page: nothing goes to main', async () => {
    const sent: unknown[] = [];
    const port: MessagePort = {
      send: (message) => sent.push(message),
      onMessage: () => undefined,
      onClose: () => undefined,
    };
    const { open, opened } = recorder();
    const bridge = createBridgeClient(
      createMessageApi(port, {
        stageDropped: () => Promise.resolve({ ok: true, result: [] }),
        local: pageRequests({
          open,
          document: {} as Document,
          stage: () => Promise.resolve({ ok: true, result: [] }),
          hand: () => undefined,
        }),
      }),
    );
    await bridge.app.openExternal({ url: 'https://example.org/' });
    await expect(bridge.app.openExternal({ url: 'file:///etc/passwd' })).rejects.toMatchObject({
      code: 'validation',
    });
    expect(opened).toEqual([['https://example.org/', '_blank', 'noopener,noreferrer']]);
    expect(sent).toEqual([]);
  });
});
