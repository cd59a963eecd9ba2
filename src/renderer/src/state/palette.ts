import type { LucideIcon } from 'lucide-react';
import { useEffect } from 'react';
import { create } from 'zustand';

/** A command a screen offers in the palette while it is shown (e.g. on an artifact page). */
export interface PaletteCommand {
  id: string;
  label: string;
  icon: LucideIcon;
  hint?: string;
  run: () => void;
}

/**
 * Something the palette (or the window's drop handler) asks a screen to do once it is
 * shown: the screen takes it on mount. UI state only, so zustand.
 */
export type Intent =
  | { kind: 'upload.pick' }
  | { kind: 'artifacts.lookup' }
  | { kind: 'settings.add-server' }
  /** Files dropped anywhere on the window: the Upload screen stages and detects them. */
  | { kind: 'upload.dropped'; files: File[] };

interface PaletteRegistry {
  groups: Record<string, { heading: string; commands: PaletteCommand[] }>;
  intent: Intent | null;
  register: (owner: string, heading: string, commands: PaletteCommand[]) => void;
  unregister: (owner: string) => void;
  request: (intent: Intent) => void;
  clearIntent: () => void;
}

export const usePaletteRegistry = create<PaletteRegistry>()((set) => ({
  groups: {},
  intent: null,
  register: (owner, heading, commands) => {
    set((s) => ({ groups: { ...s.groups, [owner]: { heading, commands } } }));
  },
  unregister: (owner) => {
    set((s) => {
      const groups = Object.fromEntries(Object.entries(s.groups).filter(([k]) => k !== owner));
      return { groups };
    });
  },
  request: (intent) => {
    set({ intent });
  },
  clearIntent: () => {
    set({ intent: null });
  },
}));

/** Offers the commands in the palette while the calling component is mounted. */
export function usePaletteCommands(
  owner: string,
  heading: string,
  commands: PaletteCommand[],
): void {
  const register = usePaletteRegistry((s) => s.register);
  const unregister = usePaletteRegistry((s) => s.unregister);
  useEffect(() => {
    register(owner, heading, commands);
  }, [owner, heading, commands, register]);
  useEffect(
    () => () => {
      unregister(owner);
    },
    [owner, unregister],
  );
}

/** Runs `handle` when an intent of this kind is pending, and consumes it. */
export function useIntent<K extends Intent['kind']>(
  kind: K,
  handle: (intent: Extract<Intent, { kind: K }>) => void,
): void {
  const intent = usePaletteRegistry((s) => s.intent);
  const clear = usePaletteRegistry((s) => s.clearIntent);
  useEffect(() => {
    if (intent?.kind !== kind) return;
    clear();
    handle(intent as Extract<Intent, { kind: K }>);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once per intent, not per render of handle
  }, [intent, kind, clear]);
}
