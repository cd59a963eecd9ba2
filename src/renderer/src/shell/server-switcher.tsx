import { Check, ChevronDown, Server, Settings2 } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useAppQuery, useMutationOf } from '@renderer/queries/hooks';
import { serverMutations, serverQueries } from '@renderer/queries/servers';
import { useUiStore } from '@renderer/state/ui-store';
import { serverHost } from '@shared/server-names';
import './shell.css';

/**
 * The top bar's server switcher: a menu button listing the server profiles (switching
 * with servers.setActive) and "Manage servers…". Arrow keys move, Escape closes and gives
 * focus back to the button (WAI-ARIA menu button pattern). Every server is named with its
 * host beside it, the button's too: two names may read alike, their hosts do not.
 */
export function ServerSwitcher(props: {
  serverName?: string | undefined;
  serverHost?: string | undefined;
  scope?: string | undefined;
}): React.JSX.Element {
  const setArea = useUiStore((s) => s.setArea);
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  const servers = useAppQuery(serverQueries.list, { enabled: open });
  const switchTo = useMutationOf(serverMutations.setActive);

  const close = (focusButton: boolean): void => {
    setOpen(false);
    if (focusButton) buttonRef.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent): void => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) {
        setOpen(false);
      }
    };
    window.addEventListener('pointerdown', onPointer);
    return () => {
      window.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  // Focus the checked (or first) item once the menu has its items.
  useEffect(() => {
    if (!open) return;
    const items = menuItems(menuRef.current);
    const checked = items.find((item) => item.getAttribute('aria-checked') === 'true');
    (checked ?? items[0])?.focus();
  }, [open, servers.data]);

  const onMenuKey = (event: KeyboardEvent<HTMLDivElement>): void => {
    const items = menuItems(menuRef.current);
    const index = items.indexOf(document.activeElement as HTMLElement);
    const move = (to: number): void => {
      event.preventDefault();
      items[(to + items.length) % items.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(index + 1);
    else if (event.key === 'ArrowUp') move(index - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(items.length - 1);
    else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close(true);
    } else if (event.key === 'Tab') setOpen(false);
  };

  const label = props.serverName
    ? `Server ${props.serverName}${props.serverHost ? ` (${props.serverHost})` : ''}${props.scope ? `, scope ${props.scope}` : ''}: switch server`
    : 'No server: choose or add one';

  return (
    <div className="switcher">
      <button
        ref={buttonRef}
        type="button"
        className="server-switcher"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        data-testid="server-switcher"
        onClick={() => {
          setOpen((o) => !o);
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        <Server size={14} aria-hidden="true" />
        {props.serverName ? (
          <>
            <span>{props.serverName}</span>
            {props.serverHost ? (
              <span className="mono muted" data-testid="server-switcher-host">
                ({props.serverHost})
              </span>
            ) : null}
            {props.scope ? <span className="muted">/ {props.scope}</span> : null}
          </>
        ) : (
          <span className="muted">No server</span>
        )}
        <ChevronDown size={13} aria-hidden="true" className="muted" />
      </button>
      {open ? (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label="Servers"
          className="switcher-menu"
          onKeyDown={onMenuKey}
        >
          {servers.isPending ? (
            <div className="switcher-note" role="none">
              Loading servers…
            </div>
          ) : servers.isError ? (
            <div className="switcher-note tone-danger" role="none">
              Could not list the servers: {servers.error.message}
            </div>
          ) : servers.data.length === 0 ? (
            <div className="switcher-note" role="none">
              No servers yet.
            </div>
          ) : (
            servers.data.map((profile) => (
              <button
                key={profile.id}
                type="button"
                role="menuitemradio"
                aria-checked={profile.active}
                tabIndex={-1}
                className="switcher-item"
                onClick={() => {
                  close(true);
                  if (!profile.active) switchTo.mutate(profile.id);
                }}
              >
                <span className="switcher-check" aria-hidden="true">
                  {profile.active ? <Check size={14} /> : null}
                </span>
                <span className="switcher-name">{profile.name}</span>
                <span className="switcher-url mono muted">
                  {serverHost(profile.apiUrl)}
                  {profile.scope ? ` / ${profile.scope}` : ''}
                </span>
                {profile.hasToken ? null : <span className="switcher-tag">signed out</span>}
              </button>
            ))
          )}
          <div role="separator" className="switcher-separator" />
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            className="switcher-item"
            onClick={() => {
              close(false);
              setArea('settings');
            }}
          >
            <span className="switcher-check" aria-hidden="true">
              <Settings2 size={14} />
            </span>
            <span className="switcher-name">Manage servers…</span>
          </button>
        </div>
      ) : null}
      {switchTo.isError ? (
        <span role="alert" className="switcher-error tone-danger">
          Could not switch: {switchTo.error.message}
        </span>
      ) : null}
    </div>
  );
}

function menuItems(menu: HTMLElement | null): HTMLElement[] {
  if (!menu) return [];
  return [...menu.querySelectorAll<HTMLElement>('[role^="menuitem"]')];
}
