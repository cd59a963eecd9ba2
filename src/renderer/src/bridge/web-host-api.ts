/**
 * The DebusineApi over the web host's WebSocket, for the app running in a browser. The
 * session key comes from the page's URL (the host printed it); without one, the cookie the
 * host set when the page loaded authorises the socket.
 */
import type { DebusineApi, DroppedFile, Reply, StagedFile } from '../../../shared/contract';
import type { SerializedError } from '../../../shared/errors';
import { createMessageApi, type MessagePort } from '../../../shared/bridge-message-api';

const CLOSED: SerializedError = {
  code: 'network',
  message: 'The connection to the Debusine Desktop host was lost. Reload the page.',
};

export function sessionKeyFrom(location: Pick<Location, 'search'>): string | null {
  return new URLSearchParams(location.search).get('key');
}

function openSocket(url: string): MessagePort {
  const socket = new WebSocket(url);
  const outgoing: string[] = [];
  let receiver: Parameters<MessagePort['onMessage']>[0] = () => undefined;
  let onClose: Parameters<MessagePort['onClose']>[0] = () => undefined;
  socket.addEventListener('open', () => {
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
    onClose(CLOSED);
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

async function stageOne(file: DroppedFile, key: string | null): Promise<Reply<StagedFile>> {
  try {
    const response = await fetch(`/staging?name=${encodeURIComponent(file.name)}`, {
      method: 'POST',
      // The page hands over DOM File objects; the contract's DroppedFile is their shape.
      body: file as unknown as Blob,
      headers: key === null ? {} : { 'X-Debusine-Key': key },
    });
    return (await response.json()) as Reply<StagedFile>;
  } catch {
    return { ok: false, error: CLOSED };
  }
}

export function connectWebHost(location: Pick<Location, 'host' | 'search'>): DebusineApi {
  const key = sessionKeyFrom(location);
  const query = key === null ? '' : `?key=${encodeURIComponent(key)}`;
  const port = openSocket(`ws://${location.host}/bridge${query}`);
  return createMessageApi(port, {
    transport: 'web',
    async stageDropped(files) {
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
