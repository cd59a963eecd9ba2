/**
 * The renderer's side of a message transport (the web host's WebSocket; the in-memory pair
 * in tests): builds the same DebusineApi the preload exposes in Electron, one method per
 * contract request, answering with Replies.
 */
import type {
  ClientMessage,
  DebusineApi,
  DroppedFile,
  EventChannel,
  Reply,
  ServerMessage,
  StagedFile,
} from './contract';
import { REQUEST_CHANNELS, splitChannel } from './contract-names';
import type { SerializedError } from './errors';

export interface MessagePort {
  send(message: ClientMessage): void;
  /** Registers the one receiver of messages from main. */
  onMessage(receiver: (message: ServerMessage) => void): void;
  /** Registers what to do when the transport is gone for good. */
  onClose(callback: (error: SerializedError) => void): void;
}

export interface MessageApiOptions {
  transport: 'electron' | 'web';
  stageDropped: (files: readonly DroppedFile[]) => Promise<Reply<StagedFile[]>>;
  /**
   * Answers app.openExternal on this side of the transport, where the page can open the
   * address itself (in a browser, the system browser is the one the app runs in); without
   * it, the request goes to main.
   */
  openExternal?: (url: string) => Reply<undefined>;
}

type Listener = (payload: unknown) => void;

export function createMessageApi(port: MessagePort, options: MessageApiOptions): DebusineApi {
  let nextId = 1;
  const waiting = new Map<number, (reply: Reply<unknown>) => void>();
  const listeners = new Map<EventChannel, Set<Listener>>();
  let closed: SerializedError | null = null;
  let readySent = false;

  port.onMessage((message) => {
    if (message.type === 'reply') {
      const resolve = waiting.get(message.id);
      waiting.delete(message.id);
      resolve?.(message.reply);
      return;
    }
    for (const listener of listeners.get(message.event) ?? []) listener(message.payload);
  });
  port.onClose((error) => {
    closed = error;
    for (const resolve of waiting.values()) resolve({ ok: false, error });
    waiting.clear();
  });

  const call = (channel: string, args: unknown): Promise<Reply<unknown>> => {
    if (closed) return Promise.resolve({ ok: false, error: closed });
    const id = nextId++;
    return new Promise((resolve) => {
      waiting.set(id, resolve);
      port.send({ type: 'request', id, channel, args });
    });
  };

  const api: Record<string, unknown> = {
    transport: options.transport,
    on(event: EventChannel, listener: Listener): () => void {
      const set = listeners.get(event) ?? new Set<Listener>();
      listeners.set(event, set);
      set.add(listener);
      if (!readySent) {
        readySent = true;
        // Subscriptions made in the same tick (one React commit) all land before main
        // flushes the events it kept for us.
        queueMicrotask(() => {
          port.send({ type: 'ready' });
        });
      }
      return () => {
        set.delete(listener);
      };
    },
  };
  for (const channel of REQUEST_CHANNELS) {
    const [namespace, method] = splitChannel(channel);
    const group = (api[namespace] ??= {}) as Record<string, unknown>;
    group[method] = (args?: unknown) => call(channel, args);
  }
  const files = (api.files ??= {}) as Record<string, unknown>;
  files.stageDropped = options.stageDropped;
  const { openExternal } = options;
  if (openExternal) {
    const app = (api.app ??= {}) as Record<string, unknown>;
    app.openExternal = (args?: { url?: unknown }) =>
      Promise.resolve(
        typeof args?.url === 'string'
          ? openExternal(args.url)
          : { ok: false, error: { code: 'validation', message: 'A link needs an address.' } },
      );
  }
  // The object is built from the same name lists the type is derived from.
  return api as unknown as DebusineApi;
}
