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
  type LucideIcon,
} from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useAppQuery, useMutationOf } from '@renderer/queries/hooks';
import { serverMutations, serverQueries } from '@renderer/queries/servers';
import { useUiStore, type ThemePreference } from '@renderer/state/ui-store';
import { artifactIdFrom, isAddress } from '@renderer/kit/artifact-id';
import { AREA_INFO } from './areas';
import { usePaletteRegistry, type Intent } from '@renderer/state/palette';
import { useOpen, useOpenAddress } from '@renderer/kit/navigation';

const THEMES: readonly { id: ThemePreference; label: string; icon: LucideIcon }[] = [
  { id: 'system', label: 'Theme: follow the system', icon: Monitor },
  { id: 'light', label: 'Theme: light', icon: Sun },
  { id: 'dark', label: 'Theme: dark', icon: Moon },
];

/** Actions that open an area and ask it for something (a file dialog, a form). */
const ASK_ACTIONS: readonly {
  value: string;
  area: 'upload' | 'artifacts' | 'settings';
  intent: Intent;
  icon: LucideIcon;
  label: string;
}[] = [
  {
    value: 'upload choose files to upload pick',
    area: 'upload',
    intent: { kind: 'upload.pick' },
    icon: FilePlus2,
    label: 'Choose files to upload…',
  },
  {
    value: 'artifact look up open by id or url',
    area: 'artifacts',
    intent: { kind: 'artifacts.lookup' },
    icon: Search,
    label: 'Look up an artifact by id or URL…',
  },
  {
    value: 'server add a server sign in enroll token',
    area: 'settings',
    intent: { kind: 'settings.add-server' },
    icon: ServerCog,
    label: 'Add a server…',
  },
];

/** One line of the palette; `value` is what typing matches, `hint` a muted note after it. */
function PaletteItem(props: {
  value: string;
  icon: LucideIcon;
  label: React.ReactNode;
  hint?: string | undefined;
  onSelect: () => void;
}): React.JSX.Element {
  const Icon = props.icon;
  return (
    <Command.Item value={props.value} onSelect={props.onSelect} className="palette-item">
      <Icon size={15} aria-hidden="true" />
      <span>{props.label}</span>
      {props.hint !== undefined ? <span className="palette-hint">{props.hint}</span> : null}
    </Command.Item>
  );
}

/** Every action of the app, reachable by typing (Ctrl/Cmd+K). */
export function CommandPalette(): React.JSX.Element | null {
  const open = useUiStore((s) => s.paletteOpen);
  const setOpen = useUiStore((s) => s.setPaletteOpen);
  const setArea = useUiStore((s) => s.setArea);
  const setTheme = useUiStore((s) => s.setTheme);
  const { openArtifact } = useOpen();
  const groups = usePaletteRegistry((s) => s.groups);
  const request = usePaletteRegistry((s) => s.request);
  const returnFocus = useRef<Element | null>(null);
  const [search, setSearch] = useState('');
  /** Why the address typed could not be opened (a server the app does not know). */
  const [refusal, setRefusal] = useState<string | null>(null);
  const openAddress = useOpenAddress();

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
  const address = isAddress(search) ? search : null;
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
        onValueChange={(value) => {
          setRefusal(null);
          setSearch(value);
        }}
      />
      <Command.List className="palette-list">
        <Command.Empty className="palette-empty">No matching command.</Command.Empty>
        {address !== null ? (
          <Command.Group heading="Address">
            <PaletteItem
              value={`open address ${address}`}
              icon={Boxes}
              label={<>Open this address</>}
              onSelect={() => {
                setRefusal(null);
                openAddress(address).then(
                  (refused) => {
                    if (refused === null) run(() => undefined)();
                    else setRefusal(refused);
                  },
                  (failure: unknown) => {
                    setRefusal(failure instanceof Error ? failure.message : String(failure));
                  },
                );
              }}
            />
            {refusal !== null ? (
              <div className="palette-refusal" role="alert">
                {refusal}
              </div>
            ) : null}
          </Command.Group>
        ) : null}
        {typedId !== null ? (
          <Command.Group heading="Artifact">
            <PaletteItem
              value={`open artifact ${search}`}
              icon={Boxes}
              label={<>Open artifact {typedId}</>}
              onSelect={run(() => {
                openArtifact(typedId);
              })}
            />
          </Command.Group>
        ) : null}
        {Object.entries(groups).map(([owner, group]) => (
          <Command.Group key={owner} heading={group.heading}>
            {group.commands.map((command) => (
              <PaletteItem
                key={command.id}
                value={`${group.heading} ${command.label}`}
                icon={command.icon}
                label={command.label}
                // An empty hint shows no note, as a missing one does.
                hint={command.hint === '' ? undefined : command.hint}
                onSelect={run(command.run)}
              />
            ))}
          </Command.Group>
        ))}
        <Command.Group heading="Actions">
          {ASK_ACTIONS.map((action) => (
            <PaletteItem
              key={action.intent.kind}
              value={action.value}
              icon={action.icon}
              label={action.label}
              onSelect={goAndAsk(action.area, action.intent)}
            />
          ))}
          {active?.hasToken ? (
            <PaletteItem
              value={`sign out of ${active.name}`}
              icon={LogOut}
              label={<>Sign out of {active.name}</>}
              onSelect={run(() => {
                signOut.mutate(active.id);
              })}
            />
          ) : null}
        </Command.Group>
        {servers.data && servers.data.length > 1 ? (
          <Command.Group heading="Switch server">
            {servers.data
              .filter((s) => !s.active)
              .map((profile) => (
                <PaletteItem
                  key={profile.id}
                  value={`switch server ${profile.name} ${profile.apiUrl}`}
                  icon={Server}
                  label={<>Switch to {profile.name}</>}
                  hint={profile.scope ?? ''}
                  onSelect={run(() => {
                    switchTo.mutate(profile.id);
                  })}
                />
              ))}
          </Command.Group>
        ) : null}
        <Command.Group heading="Go to">
          {AREA_INFO.map((info) => (
            <PaletteItem
              key={info.id}
              value={`go ${info.label} ${info.description}`}
              icon={info.icon}
              label={info.label}
              hint={info.description}
              onSelect={run(() => {
                setArea(info.id);
              })}
            />
          ))}
        </Command.Group>
        <Command.Group heading="Appearance">
          {THEMES.map((theme) => (
            <PaletteItem
              key={theme.id}
              value={theme.label}
              icon={theme.icon}
              label={theme.label}
              onSelect={run(() => {
                setTheme(theme.id);
              })}
            />
          ))}
        </Command.Group>
      </Command.List>
    </Command.Dialog>
  );
}
