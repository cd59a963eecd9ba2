import { create } from 'zustand';
import { persist } from 'zustand/middleware';

/** The app's areas, in sidebar order; Ctrl/Cmd+1…7 follow this order. */
export const AREAS = [
  'upload',
  'work-requests',
  'artifacts',
  'workspaces',
  'collections',
  'templates',
  'settings',
] as const;
export type Area = (typeof AREAS)[number];

export type ThemePreference = 'system' | 'light' | 'dark';

interface UiState {
  area: Area;
  theme: ThemePreference;
  paletteOpen: boolean;
  setArea: (area: Area) => void;
  setTheme: (theme: ThemePreference) => void;
  setPaletteOpen: (open: boolean) => void;
}

/** UI state only: server data lives in react-query. */
export const useUiStore = create<UiState>()(
  persist(
    (set) => ({
      area: 'upload',
      theme: 'system',
      paletteOpen: false,
      setArea: (area) => {
        set({ area });
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
      // The palette never reopens by itself after a reload.
      partialize: (state) => ({ area: state.area, theme: state.theme }),
    },
  ),
);
