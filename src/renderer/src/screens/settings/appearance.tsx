import { Monitor, Moon, Sun } from 'lucide-react';
import { useUiStore, type ThemePreference } from '@renderer/state/ui-store';
import { SegmentedOptions } from './segmented-options';

const CHOICES: readonly { id: ThemePreference; label: string; icon: typeof Sun }[] = [
  { id: 'system', label: 'System', icon: Monitor },
  { id: 'light', label: 'Light', icon: Sun },
  { id: 'dark', label: 'Dark', icon: Moon },
];

/** The theme: follow the system, or force light or dark. */
export function AppearanceSection(): React.JSX.Element {
  const theme = useUiStore((s) => s.theme);
  const setTheme = useUiStore((s) => s.setTheme);
  return (
    <section className="settings-section" aria-labelledby="settings-appearance">
      <h2 id="settings-appearance">Appearance</h2>
      <div role="radiogroup" aria-labelledby="settings-theme-label" className="segmented">
        <span id="settings-theme-label" className="segmented-label">
          Theme
        </span>
        <SegmentedOptions
          name="theme"
          formValues
          options={CHOICES}
          value={theme}
          onChange={setTheme}
        />
      </div>
      <p className="field-hint">
        System follows your desktop&apos;s light or dark setting and changes with it.
      </p>
    </section>
  );
}
