/**
 * The DebusineApi over the web host's WebSocket, for the app running in a browser.
 *
 * The session key comes in the fragment of the address the host printed
 * (`http://127.0.0.1:PORT/#key=…`): a fragment is never sent in a request, so no server
 * sees it. The page takes it, removes it from the address bar and the tab's history, and
 * presents it only to its own host: as a WebSocket subprotocol and as a staging header.
 * It keeps it in sessionStorage, so that a reload (which has no fragment any more) still
 * gets in: sessionStorage belongs to this origin, port included, and to this tab, so a
 * page on another port cannot read it, and it is gone when the tab closes.
 */
import type { DebusineApi, DroppedFile, Reply, StagedFile } from '@shared/contract';
import type { SerializedError } from '@shared/errors';
import { createMessageApi, type MessagePort } from '@shared/bridge-message-api';
import { BRIDGE_PROTOCOL, KEY_HEADER, keyProtocol } from '@shared/web-host-key';

const CLOSED: SerializedError = {
  code: 'network',
  message: 'The connection to the Debusine Desktop host was lost. Reload the page.',
};

const NO_KEY: SerializedError = {
  code: 'network',
  message:
    'This page has no session key: open the address the Debusine Desktop host printed (it ends in #key=…).',
};

const REFUSED: SerializedError = {
  code: 'network',
  message:
    'The Debusine Desktop host refused this page, or is not running: open the address it printed (it ends in #key=…).',
};

/** Where the key is kept for reloads of this tab. */
export const KEY_STORAGE = 'debusine-desktop.session-key';

export interface PageWindow {
  location: Pick<Location, 'hash' | 'pathname' | 'search'>;
  history: Pick<History, 'replaceState' | 'state'>;
  sessionStorage: Pick<Storage, 'getItem' | 'setItem'>;
}

/**
 * The session key: from the address's fragment, which is then removed from the address
 * bar and history, or else the one this tab kept from an earlier load.
 */
export function takeSessionKey(page: PageWindow): string | null {
  const fragment = new URLSearchParams(page.location.hash.replace(/^#/, ''));
  const fromUrl = fragment.get('key');
  if (fromUrl !== null) {
    fragment.delete('key');
    const rest = fragment.toString();
    page.history.replaceState(
      page.history.state,
      '',
      `${page.location.pathname}${page.location.search}${rest ? `#${rest}` : ''}`,
    );
    try {
      page.sessionStorage.setItem(KEY_STORAGE, fromUrl);
    } catch {
      // Storage refused (a private mode): this load works; a reload needs the address again.
    }
    return fromUrl;
  }
  try {
    return page.sessionStorage.getItem(KEY_STORAGE);
  } catch {
    return null;
  }
}

/** A transport that is closed from the start, with why. */
function refusedPort(error: SerializedError): MessagePort {
  return {
    send: () => undefined,
    onMessage: () => undefined,
    onClose(callback) {
      queueMicrotask(() => {
        callback(error);
      });
    },
  };
}

function openSocket(url: string, key: string): MessagePort {
  // The host answers with the plain protocol; the one carrying the key is never echoed.
  const socket = new WebSocket(url, [BRIDGE_PROTOCOL, keyProtocol(key)]);
  const outgoing: string[] = [];
  let receiver: Parameters<MessagePort['onMessage']>[0] = () => undefined;
  let onClose: Parameters<MessagePort['onClose']>[0] = () => undefined;
  let opened = false;
  socket.addEventListener('open', () => {
    opened = true;
    for (const text of outgoing.splice(0)) socket.send(text);
  });
  socket.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (typeof event.data !== 'string') return;
    try {
      receiver(JSON.parse(event.data) as Parameters<typeof receiver>[0]);
    } catch {
      // A message that is not JSON is not from our host; ignore it.
    }
  });
  socket.addEventListener('close', () => {
    // Never opened: the host refused the key (it was restarted with a new one) or is gone.
    onClose(opened ? CLOSED : REFUSED);
  });
  return {
    send(message) {
      const text = JSON.stringify(message);
      if (socket.readyState === WebSocket.OPEN) socket.send(text);
      else outgoing.push(text);
    },
    onMessage(callback) {
      receiver = callback;
    },
    onClose(callback) {
      onClose = callback;
    },
  };
}

async function stageOne(file: DroppedFile, key: string): Promise<Reply<StagedFile>> {
  try {
    const response = await fetch(`/staging?name=${encodeURIComponent(file.name)}`, {
      method: 'POST',
      // The page hands over DOM File objects; the contract's DroppedFile is their shape.
      body: file as unknown as Blob,
      headers: { [KEY_HEADER]: key },
    });
    if (response.status === 403) return { ok: false, error: REFUSED };
    return (await response.json()) as Reply<StagedFile>;
  } catch {
    return { ok: false, error: CLOSED };
  }
}

export function connectWebHost(
  page: PageWindow & { location: Pick<Location, 'host'> },
): DebusineApi {
  const key = takeSessionKey(page);
  const port =
    key === null ? refusedPort(NO_KEY) : openSocket(`ws://${page.location.host}/bridge`, key);
  return createMessageApi(port, {
    transport: 'web',
    async stageDropped(files) {
      if (key === null) return { ok: false, error: NO_KEY };
      const staged: StagedFile[] = [];
      for (const file of files) {
        const reply = await stageOne(file, key);
        if (!reply.ok) return reply;
        staged.push(reply.result);
      }
      return { ok: true, result: staged };
    },
  });
}
