import { CircleCheck, KeyRound, LogOut, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { ServerProfile } from '@shared/contract';
import { hostBeside } from '@shared/server-names';
import { useMutationOf } from '@renderer/queries/hooks';
import { serverMutations } from '@renderer/queries/servers';
import { ConfirmDialog } from '@renderer/components/confirm-dialog';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { EditServerForm } from './add-server';
import { TableHead } from '@renderer/components/table-head';
import { RowActionButtons } from '@renderer/components/row-action-buttons';

/** The server profiles: which is active, which has a token; switch, edit, sign in or out. */
export function ServerTable(props: {
  servers: ServerProfile[];
  signInFor: string | null;
  onSignIn: (id: string) => void;
}): React.JSX.Element {
  const [editing, setEditing] = useState<string | null>(null);
  const [removing, setRemoving] = useState<ServerProfile | null>(null);
  const setActive = useMutationOf(serverMutations.setActive);
  const remove = useMutationOf(serverMutations.remove);
  const signOut = useMutationOf(serverMutations.signOut);
  const failed = setActive.error ?? remove.error ?? signOut.error;

  return (
    <>
      <table className="table servers-table" aria-label="Servers">
        <TableHead
          columns={[
            'Name',
            'API URL',
            'Scope',
            'Default workspace',
            'Sign-in',
            { label: 'Actions', hide: 'visually' },
          ]}
        />
        <tbody>
          {props.servers.map((server) =>
            editing === server.id ? (
              <tr key={server.id}>
                <td colSpan={6}>
                  <EditServerForm
                    server={server}
                    onDone={() => {
                      setEditing(null);
                    }}
                  />
                </td>
              </tr>
            ) : (
              <tr key={server.id} data-testid={`server-row-${server.name}`}>
                <td>
                  <span className="server-name">{server.name}</span>{' '}
                  {/* Beside the name: two names may read alike, their hosts do not. */}
                  {hostBeside(server.name, server.apiUrl) === undefined ? null : (
                    <span className="mono muted server-host">
                      ({hostBeside(server.name, server.apiUrl)})
                    </span>
                  )}
                  {server.active ? (
                    <span className="badge badge-accent">
                      <CircleCheck size={12} aria-hidden="true" /> Active
                    </span>
                  ) : null}
                </td>
                <td className="mono">{server.apiUrl}</td>
                <td className="mono">{server.scope ?? <span className="muted">—</span>}</td>
                <td className="mono">
                  {server.defaultWorkspace ?? <span className="muted">—</span>}
                </td>
                <td>
                  {server.hasToken ? (
                    <span className="status-badge tone-success">
                      <KeyRound size={14} aria-hidden="true" /> Token stored
                    </span>
                  ) : (
                    <span className="status-badge tone-muted">
                      <LogOut size={14} aria-hidden="true" /> Signed out
                    </span>
                  )}
                </td>
                <td>
                  <div className="row-actions">
                    {server.active ? null : (
                      <button
                        type="button"
                        className="button small"
                        onClick={() => {
                          setActive.mutate(server.id);
                        }}
                      >
                        Use
                      </button>
                    )}
                    {server.hasToken ? (
                      <button
                        type="button"
                        className="button small"
                        onClick={() => {
                          signOut.mutate(server.id);
                        }}
                      >
                        Sign out
                      </button>
                    ) : (
                      <button
                        type="button"
                        className="button small primary"
                        aria-pressed={props.signInFor === server.id}
                        onClick={() => {
                          props.onSignIn(server.id);
                        }}
                      >
                        Sign in…
                      </button>
                    )}
                    <RowActionButtons
                      look="icon"
                      subject={server.name}
                      actions={[
                        {
                          verb: 'Edit',
                          Icon: Pencil,
                          run: () => {
                            setEditing(server.id);
                          },
                        },
                        {
                          verb: 'Remove',
                          Icon: Trash2,
                          run: () => {
                            setRemoving(server);
                          },
                        },
                      ]}
                    />
                  </div>
                </td>
              </tr>
            ),
          )}
        </tbody>
      </table>
      {failed ? <ErrorState error={failed} /> : null}
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.name ?? 'the server'}?`}
        confirmLabel="Remove"
        danger
        onCancel={() => {
          setRemoving(null);
        }}
        onConfirm={() => {
          if (removing) remove.mutate(removing.id);
          setRemoving(null);
        }}
      >
        The profile and its stored token are deleted from this computer. The token stays valid on
        the server until you disable it there.
      </ConfirmDialog>
    </>
  );
}
