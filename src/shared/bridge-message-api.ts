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
  RequestChannel,
  RequestResult,
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

/** Sends a request on to main, and answers with main's reply. */
export type AskMain = (channel: RequestChannel, args: unknown) => Promise<Reply<unknown>>;

/**
 * A request answered on this side of the transport, because only the page can do what it
 * asks there (in a browser: open a tab, hand a file to the browser's download, show a file
 * chooser). It gets the arguments as the page passed them, unchecked (the schemas stay out
 * of the renderer's bundle), and `main`, to ask main what it needs for them.
 */
export type LocalRequest<C extends RequestChannel> = (
  args: unknown,
  main: AskMain,
) => Reply<RequestResult<C>> | Promise<Reply<RequestResult<C>>>;

export type LocalRequests = { [C in RequestChannel]?: LocalRequest<C> };

export interface MessageApiOptions {
  stageDropped: (files: readonly DroppedFile[]) => Promise<Reply<StagedFile[]>>;
  /** Requests this side answers itself; every other request goes to main. */
  local?: LocalRequests;
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

  const call: AskMain = (channel, args) => {
    if (closed) return Promise.resolve({ ok: false, error: closed });
    const id = nextId++;
    return new Promise((resolve) => {
      waiting.set(id, resolve);
      port.send({ type: 'request', id, channel, args });
    });
  };

  const api: Record<string, unknown> = {
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
  for (const [channel, answer] of Object.entries(options.local ?? {})) {
    const [namespace, method] = splitChannel(channel);
    const group = (api[namespace] ??= {}) as Record<string, unknown>;
    // Called at once, in the caller's tick: a new tab or a file chooser opens only while the
    // click that asked for it still counts as the user's.
    group[method] = (args?: unknown) =>
      Promise.resolve((answer as LocalRequest<RequestChannel>)(args, call));
  }
  // The object is built from the same name lists the type is derived from.
  return api as unknown as DebusineApi;
}
