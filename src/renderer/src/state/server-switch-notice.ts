/**
 * The server a link (or a notification's click) switched the window to, until the user
 * dismisses the notice: a link must not change which server the app shows without a word,
 * and the notice names the server with its host, which a look-alike name cannot fake. UI
 * state only, so zustand; which server is active is main's.
 */
import { create } from 'zustand';
import type { ServerSwitch } from '@shared/contract';

interface ServerSwitchNoticeState {
  switchedTo: ServerSwitch | null;
  show: (switchedTo: ServerSwitch) => void;
  dismiss: () => void;
}

export const useServerSwitchNotice = create<ServerSwitchNoticeState>()((set) => ({
  switchedTo: null,
  show: (switchedTo) => {
    set({ switchedTo });
  },
  dismiss: () => {
    set({ switchedTo: null });
  },
}));
