import { useEffect } from 'react';
import { useUiStore } from '@renderer/state/ui-store';

/**
 * Applies the theme preference: `system` follows prefers-color-scheme (through CSS), the
 * overrides set data-theme on <html>, which the style tokens key on.
 */
export function useApplyTheme(): void {
  const theme = useUiStore((s) => s.theme);
  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'system') delete root.dataset.theme;
    else root.dataset.theme = theme;
  }, [theme]);
}
