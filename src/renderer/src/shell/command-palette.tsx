import { Command } from 'cmdk';
import { Monitor, Moon, Sun } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useUiStore, type ThemePreference } from '../state/ui-store';
import { AREA_INFO } from './areas';

const THEMES: readonly { id: ThemePreference; label: string; icon: typeof Sun }[] = [
  { id: 'system', label: 'Theme: follow the system', icon: Monitor },
  { id: 'light', label: 'Theme: light', icon: Sun },
  { id: 'dark', label: 'Theme: dark', icon: Moon },
];

/** Every action of the app, reachable by typing (Ctrl/Cmd+K). */
export function CommandPalette(): React.JSX.Element | null {
  const open = useUiStore((s) => s.paletteOpen);
  const setOpen = useUiStore((s) => s.setPaletteOpen);
  const setArea = useUiStore((s) => s.setArea);
  const setTheme = useUiStore((s) => s.setTheme);
  const returnFocus = useRef<Element | null>(null);

  useEffect(() => {
    if (open) returnFocus.current = document.activeElement;
    else if (returnFocus.current instanceof HTMLElement) returnFocus.current.focus();
  }, [open]);

  const run = (action: () => void) => () => {
    action();
    setOpen(false);
  };

  return (
    <Command.Dialog
      open={open}
      onOpenChange={setOpen}
      label="Command palette"
      className="palette"
      overlayClassName="palette-overlay"
      contentClassName="palette-content"
    >
      <Command.Input className="palette-input" placeholder="Type a command or an area…" />
      <Command.List className="palette-list">
        <Command.Empty className="palette-empty">No matching command.</Command.Empty>
        <Command.Group heading="Go to">
          {AREA_INFO.map((info) => {
            const Icon = info.icon;
            return (
              <Command.Item
                key={info.id}
                value={`go ${info.label} ${info.description}`}
                onSelect={run(() => {
                  setArea(info.id);
                })}
                className="palette-item"
              >
                <Icon size={15} aria-hidden="true" />
                <span>{info.label}</span>
                <span className="palette-hint">{info.description}</span>
              </Command.Item>
            );
          })}
        </Command.Group>
        <Command.Group heading="Appearance">
          {THEMES.map((theme) => {
            const Icon = theme.icon;
            return (
              <Command.Item
                key={theme.id}
                value={theme.label}
                onSelect={run(() => {
                  setTheme(theme.id);
                })}
                className="palette-item"
              >
                <Icon size={15} aria-hidden="true" />
                <span>{theme.label}</span>
              </Command.Item>
            );
          })}
        </Command.Group>
      </Command.List>
    </Command.Dialog>
  );
}
