import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { canLeave } from './leave-guard';

/** The app's areas, in sidebar order; Ctrl/Cmd+1…8 follow this order. */
export const AREAS = [
  'upload',
  'work-requests',
  'artifacts',
  'workspaces',
  'collections',
  'templates',
  'repositories',
  'settings',
] as const;
export type Area = (typeof AREAS)[number];

export type ThemePreference = 'system' | 'light' | 'dark';

/**
 * The server a page's data is on: its profile's id (the scope of its queries). Ids of work
 * requests and artifacts mean something else on each server, so every page names its own,
 * and is shown only while that server is the active one.
 */
export type ServerId = string;

/** A text file of an artifact in the log viewer, at a line (0-based) when one is asked. */
export interface LogTarget {
  server: ServerId;
  artifactId: number;
  path: string;
  line: number | null;
  /**
   * The text `line` had where it was read (the live log of the step whose stored log this
   * is), after those of the lines before it, to find it by near `line`; given only when the
   * log is opened.
   */
  lineTexts?: string[];
  /** The work request whose result it is, to go back to; null when opened from an artifact. */
  workRequestId: number | null;
}

/** A page inside an area: a work request's page, an artifact's page, a log in the viewer. */
export type Detail =
  | { kind: 'work-request'; server: ServerId; id: number }
  | { kind: 'artifact'; server: ServerId; id: number }
  | ({ kind: 'log' } & LogTarget)
  /** The live log of a running step, at a line (0-based) when one is asked. */
  | { kind: 'live-log'; server: ServerId; workRequestId: number; line: number | null };

interface UiState {
  area: Area;
  /** The page open in the area, if any (the list otherwise). */
  detail: Detail | null;
  theme: ThemePreference;
  paletteOpen: boolean;
  /** Goes to an area's list, or to a page in it. */
  navigate: (area: Area, detail?: Detail | null) => void;
  openWorkRequest: (server: ServerId, id: number) => void;
  openArtifact: (server: ServerId, id: number) => void;
  /** Opens a file in the log viewer, in the area it was opened from. */
  openLog: (target: LogTarget) => void;
  /** Opens a running step's live log in the log viewer. */
  openLiveLog: (server: ServerId, workRequestId: number, line?: number | null) => void;
  setArea: (area: Area) => void;
  setTheme: (theme: ThemePreference) => void;
  setPaletteOpen: (open: boolean) => void;
}

/** UI state only: server data lives in react-query. */
export const useUiStore = create<UiState>()(
  persist(
    (set) => ({
      area: 'upload',
      detail: null,
      theme: 'system',
      paletteOpen: false,
      // Every navigation asks the unsaved-changes guard first.
      navigate: (area, detail = null) => {
        if (canLeave()) set({ area, detail });
      },
      openWorkRequest: (server, id) => {
        if (canLeave()) {
          set({ area: 'work-requests', detail: { kind: 'work-request', server, id } });
        }
      },
      openArtifact: (server, id) => {
        if (canLeave()) set({ area: 'artifacts', detail: { kind: 'artifact', server, id } });
      },
      openLog: (target) => {
        const area = target.workRequestId === null ? 'artifacts' : 'work-requests';
        if (canLeave()) set({ area, detail: { kind: 'log', ...target } });
      },
      openLiveLog: (server, workRequestId, line = null) => {
        if (canLeave()) {
          set({ area: 'work-requests', detail: { kind: 'live-log', server, workRequestId, line } });
        }
      },
      setArea: (area) => {
        if (canLeave()) set({ area, detail: null });
      },
      setTheme: (theme) => {
        set({ theme });
      },
      setPaletteOpen: (paletteOpen) => {
        set({ paletteOpen });
      },
    }),
    {
      name: 'debusine-desktop.ui',
      // The palette never reopens by itself after a reload; the area and theme do persist.
      partialize: (state) => ({ area: state.area, theme: state.theme }),
    },
  ),
);
