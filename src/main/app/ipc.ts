/**
 * Wires the contract onto Electron IPC: one `handle` per request, each behind the sender
 * check; the ready signal; and the preload's staging of dropped-file paths.
 */
import type { IpcMain, IpcMainEvent, IpcMainInvokeEvent } from 'electron';
import {
  BRIDGE_ACK_CHANNEL,
  BRIDGE_READY_CHANNEL,
  REQUEST_CHANNELS,
  STAGE_PATHS_CHANNEL,
  type Reply,
  type StagedFile,
} from '../../shared/contract';
import { DebusineError, serializeError } from '../../shared/errors';
import type { Caller } from '../bridge/caller';
import type { Dispatch } from '../bridge/dispatch';
import { expandDropped, MAX_STAGED_AT_ONCE, type StagedFiles } from '../service/staged-files';
import { isTrustedSender, type TrustPolicy } from './sender';

export interface IpcDeps {
  ipcMain: Pick<IpcMain, 'handle' | 'on' | 'removeHandler'>;
  dispatch: Dispatch;
  files: StagedFiles;
  policy: TrustPolicy;
  /** The page now in this webContents, which holds what it opens; none for a closed window. */
  callerOf(webContentsId: number): Caller | undefined;
  /** The renderer in this webContents subscribed: flush its events. */
  onReady(webContentsId: number): void;
  /** The page in this webContents took `count` more events (untrusted: any value). */
  onAck(webContentsId: number, count: unknown): void;
}

const FORBIDDEN: Reply<never> = {
  ok: false,
  error: { code: 'forbidden', message: 'This frame may not use the Debusine Desktop bridge.' },
};

export function registerIpc(deps: IpcDeps): () => void {
  const guarded =
    <A extends unknown[]>(handler: (event: IpcMainInvokeEvent, ...args: A) => Promise<unknown>) =>
    (event: IpcMainInvokeEvent, ...args: A): Promise<unknown> =>
      isTrustedSender(event, deps.policy) ? handler(event, ...args) : Promise.resolve(FORBIDDEN);

  for (const channel of REQUEST_CHANNELS) {
    deps.ipcMain.handle(
      channel,
      guarded((event, args: unknown) => {
        const caller = deps.callerOf(event.sender.id);
        return caller ? deps.dispatch(channel, args, caller) : Promise.resolve(FORBIDDEN);
      }),
    );
  }
  deps.ipcMain.handle(
    STAGE_PATHS_CHANNEL,
    guarded(async (event, paths: unknown): Promise<Reply<StagedFile[]>> => {
      try {
        const caller = deps.callerOf(event.sender.id);
        if (!caller) return FORBIDDEN;
        if (
          !Array.isArray(paths) ||
          paths.length > MAX_STAGED_AT_ONCE ||
          !paths.every((p): p is string => typeof p === 'string')
        ) {
          throw new DebusineError('validation', 'Dropped files arrived in an unknown shape');
        }
        // A dropped folder stands for its files, as in the browser host, whose page walks it.
        const staged: StagedFile[] = [];
        for (const path of await expandDropped(paths, MAX_STAGED_AT_ONCE)) {
          staged.push(await deps.files.add(path, { caller }));
        }
        return { ok: true, result: staged };
      } catch (error) {
        return { ok: false, error: serializeError(error) };
      }
    }),
  );
  deps.ipcMain.on(BRIDGE_READY_CHANNEL, (event: IpcMainEvent) => {
    if (isTrustedSender(event, deps.policy)) deps.onReady(event.sender.id);
  });
  deps.ipcMain.on(BRIDGE_ACK_CHANNEL, (event: IpcMainEvent, count: unknown) => {
    if (isTrustedSender(event, deps.policy)) deps.onAck(event.sender.id, count);
  });
  return () => {
    for (const channel of [...REQUEST_CHANNELS, STAGE_PATHS_CHANNEL]) {
      deps.ipcMain.removeHandler(channel);
    }
  };
}
