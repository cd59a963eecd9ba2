import { useEffect } from 'react';
import { AREAS, useUiStore } from '@renderer/state/ui-store';

/** Ctrl/Cmd+K opens the command palette; Ctrl/Cmd+1…8 switch areas. */
export function useGlobalShortcuts(): void {
  const setArea = useUiStore((s) => s.setArea);
  const setPaletteOpen = useUiStore((s) => s.setPaletteOpen);
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      if (event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setPaletteOpen(true);
        return;
      }
      const index = Number(event.key) - 1;
      const area = AREAS[index];
      if (Number.isInteger(index) && area) {
        event.preventDefault();
        setArea(area);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
    };
  }, [setArea, setPaletteOpen]);
}
