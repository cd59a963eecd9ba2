/**
 * Builds `window.debusine` from the contract's names: one method per request, `on` for
 * contract events only, and `files.stageDropped`. ipcRenderer itself never reaches the
 * page. Imports only zod-free modules, because a sandboxed preload can require nothing
 * but `electron` (see out/preload/index.cjs after a build).
 */
import type { IpcRendererEvent } from 'electron';
import type { DebusineApi, DroppedFile, EventChannel, Reply, StagedFile } from '../shared/contract';
import {
  BRIDGE_ACK_CHANNEL,
  BRIDGE_EVENT_CHANNEL,
  BRIDGE_READY_CHANNEL,
  REQUEST_CHANNELS,
  STAGE_PATHS_CHANNEL,
  isEventChannel,
  splitChannel,
} from '../shared/contract-names';

/** The parts of ipcRenderer and webUtils the bridge uses (the tests fake them). */
export interface PreloadIpc {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  send(channel: string, ...args: unknown[]): void;
  on(channel: string, listener: (event: IpcRendererEvent, ...args: unknown[]) => void): unknown;
}
export interface PreloadWebUtils {
  getPathForFile(file: never): string;
}

type Listener = (payload: unknown) => void;

/**
 * Main sends a window no more events than a bound past what the page has taken, so the
 * page says how many it took: at most every ACK_DELAY_MS, or at once after ACK_EVERY.
 */
const ACK_DELAY_MS = 100;
const ACK_EVERY = 256;

export function buildApi(ipc: PreloadIpc, webUtils: PreloadWebUtils): DebusineApi {
  const listeners = new Map<EventChannel, Set<Listener>>();
  let readySent = false;

  let taken = 0;
  let ackTimer: ReturnType<typeof setTimeout> | undefined;
  const sendAck = (): void => {
    clearTimeout(ackTimer);
    ackTimer = undefined;
    const count = taken;
    taken = 0;
    if (count > 0) ipc.send(BRIDGE_ACK_CHANNEL, count);
  };

  ipc.on(BRIDGE_EVENT_CHANNEL, (_event, message) => {
    // Counted whatever it holds: main counted it when it sent it.
    taken++;
    if (taken >= ACK_EVERY) sendAck();
    else ackTimer ??= setTimeout(sendAck, ACK_DELAY_MS);
    const { event, payload } = (message ?? {}) as { event?: unknown; payload?: unknown };
    if (!isEventChannel(event)) return;
    for (const listener of listeners.get(event) ?? []) listener(payload);
  });

  const api: Record<string, unknown> = {
    on(event: unknown, listener: unknown): () => void {
      if (!isEventChannel(event)) throw new Error(`Not a Debusine Desktop event: ${String(event)}`);
      if (typeof listener !== 'function') throw new Error('on() needs a listener function');
      const set = listeners.get(event) ?? new Set<Listener>();
      listeners.set(event, set);
      const wrapped: Listener = (payload) => {
        (listener as Listener)(payload);
      };
      set.add(wrapped);
      if (!readySent) {
        readySent = true;
        // Every subscription made in this tick lands before main flushes its queue.
        queueMicrotask(() => {
          ipc.send(BRIDGE_READY_CHANNEL);
        });
      }
      return () => {
        set.delete(wrapped);
      };
    },
  };

  for (const channel of REQUEST_CHANNELS) {
    const [namespace, method] = splitChannel(channel);
    const group = (api[namespace] ??= {}) as Record<string, unknown>;
    // One argument at most: extra ones a page might pass are not forwarded.
    group[method] = (args?: unknown) => ipc.invoke(channel, args) as Promise<Reply<unknown>>;
  }

  const files = (api.files ??= {}) as Record<string, unknown>;
  files.stageDropped = async (dropped: readonly DroppedFile[]): Promise<Reply<StagedFile[]>> => {
    const paths: string[] = [];
    for (const file of Array.from(dropped)) {
      // Only a File the user really dropped or picked has a path; anything the page made
      // up (a Blob, a plain object) yields '' or throws.
      let path: string;
      try {
        path = webUtils.getPathForFile(file as never);
      } catch {
        path = '';
      }
      if (!path) {
        return {
          ok: false,
          error: { code: 'validation', message: `Not a file from the disk: ${file.name}` },
        };
      }
      paths.push(path);
    }
    return (await ipc.invoke(STAGE_PATHS_CHANNEL, paths)) as Reply<StagedFile[]>;
  };

  // The object is built from the same name lists the DebusineApi type comes from.
  return api as unknown as DebusineApi;
}
