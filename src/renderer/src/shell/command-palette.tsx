import { Command } from 'cmdk';
import {
  Boxes,
  FilePlus2,
  LogOut,
  Monitor,
  Moon,
  Search,
  Server,
  ServerCog,
  Sun,
} from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useAppQuery, useMutationOf } from '@renderer/queries/hooks';
import { serverMutations, serverQueries } from '@renderer/queries/servers';
import { useUiStore, type ThemePreference } from '@renderer/state/ui-store';
import { artifactIdFrom } from '@renderer/kit/artifact-id';
import { AREA_INFO } from './areas';
import { usePaletteRegistry, type Intent } from '@renderer/state/palette';

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
  const openArtifact = useUiStore((s) => s.openArtifact);
  const groups = usePaletteRegistry((s) => s.groups);
  const request = usePaletteRegistry((s) => s.request);
  const returnFocus = useRef<Element | null>(null);
  const [search, setSearch] = useState('');

  const servers = useAppQuery(serverQueries.list, { enabled: open });
  const switchTo = useMutationOf(serverMutations.setActive);
  const signOut = useMutationOf(serverMutations.signOut);

  useEffect(() => {
    if (open) returnFocus.current = document.activeElement;
    else if (returnFocus.current instanceof HTMLElement) returnFocus.current.focus();
  }, [open]);

  const run = (action: () => void) => () => {
    setSearch('');
    setOpen(false);
    action();
  };
  const goAndAsk = (area: 'upload' | 'artifacts' | 'settings', intent: Intent) =>
    run(() => {
      setArea(area);
      request(intent);
    });

  const typedId = artifactIdFrom(search);
  const active = servers.data?.find((s) => s.active);

  return (
    <Command.Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setSearch('');
        setOpen(next);
      }}
      label="Command palette"
      className="palette"
      overlayClassName="palette-overlay"
      contentClassName="palette-content"
    >
      <Command.Input
        className="palette-input"
        placeholder="Type a command, an area, or an artifact id…"
        value={search}
        onValueChange={setSearch}
      />
      <Command.List className="palette-list">
        <Command.Empty className="palette-empty">No matching command.</Command.Empty>
        {typedId !== null ? (
          <Command.Group heading="Artifact">
            <Command.Item
              value={`open artifact ${search}`}
              onSelect={run(() => {
                openArtifact(typedId);
              })}
              className="palette-item"
            >
              <Boxes size={15} aria-hidden="true" />
              <span>Open artifact {typedId}</span>
            </Command.Item>
          </Command.Group>
        ) : null}
        {Object.entries(groups).map(([owner, group]) => (
          <Command.Group key={owner} heading={group.heading}>
            {group.commands.map((command) => {
              const Icon = command.icon;
              return (
                <Command.Item
                  key={command.id}
                  value={`${group.heading} ${command.label}`}
                  onSelect={run(command.run)}
                  className="palette-item"
                >
                  <Icon size={15} aria-hidden="true" />
                  <span>{command.label}</span>
                  {command.hint ? <span className="palette-hint">{command.hint}</span> : null}
                </Command.Item>
              );
            })}
          </Command.Group>
        ))}
        <Command.Group heading="Actions">
          <Command.Item
            value="upload choose files to upload pick"
            onSelect={goAndAsk('upload', { kind: 'upload.pick' })}
            className="palette-item"
          >
            <FilePlus2 size={15} aria-hidden="true" />
            <span>Choose files to upload…</span>
          </Command.Item>
          <Command.Item
            value="artifact look up open by id or url"
            onSelect={goAndAsk('artifacts', { kind: 'artifacts.lookup' })}
            className="palette-item"
          >
            <Search size={15} aria-hidden="true" />
            <span>Look up an artifact by id or URL…</span>
          </Command.Item>
          <Command.Item
            value="server add a server sign in enroll token"
            onSelect={goAndAsk('settings', { kind: 'settings.add-server' })}
            className="palette-item"
          >
            <ServerCog size={15} aria-hidden="true" />
            <span>Add a server…</span>
          </Command.Item>
          {active?.hasToken ? (
            <Command.Item
              value={`sign out of ${active.name}`}
              onSelect={run(() => {
                signOut.mutate(active.id);
              })}
              className="palette-item"
            >
              <LogOut size={15} aria-hidden="true" />
              <span>Sign out of {active.name}</span>
            </Command.Item>
          ) : null}
        </Command.Group>
        {servers.data && servers.data.length > 1 ? (
          <Command.Group heading="Switch server">
            {servers.data
              .filter((s) => !s.active)
              .map((profile) => (
                <Command.Item
                  key={profile.id}
                  value={`switch server ${profile.name} ${profile.apiUrl}`}
                  onSelect={run(() => {
                    switchTo.mutate(profile.id);
                  })}
                  className="palette-item"
                >
                  <Server size={15} aria-hidden="true" />
                  <span>Switch to {profile.name}</span>
                  <span className="palette-hint">{profile.scope ?? ''}</span>
                </Command.Item>
              ))}
          </Command.Group>
        ) : null}
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
