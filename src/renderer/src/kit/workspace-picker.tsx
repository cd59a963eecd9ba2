import { FolderTree } from 'lucide-react';
import { useId, useState } from 'react';
import { canLeave } from '@renderer/state/leave-guard';
import { useWorkspaceStore } from '@renderer/state/workspace';
import { useCurrentWorkspace } from './current-workspace';

/** The workspace an area works in: typed (there is no listing of workspaces), suggested. */
export function WorkspacePicker(): React.JSX.Element {
  const current = useCurrentWorkspace();
  const pick = useWorkspaceStore((s) => s.pick);
  const recent = useWorkspaceStore((s) => s.recent);
  const [text, setText] = useState(current.workspace ?? '');
  const id = useId();
  // Another workspace picked elsewhere (or the server's default arriving) replaces the text.
  const [shown, setShown] = useState(current.workspace);
  if (shown !== current.workspace) {
    setShown(current.workspace);
    setText(current.workspace ?? '');
  }
  const suggestions = [...new Set([current.defaultWorkspace, ...recent])].filter(
    (w): w is string => typeof w === 'string' && w !== '',
  );
  const commit = (): void => {
    const value = text.trim();
    if (value !== '' && current.serverId && value !== current.workspace) {
      // Another workspace closes the open editors: unsaved work is asked about first.
      if (canLeave()) pick(current.serverId, value);
      else setText(current.workspace ?? '');
    } else if (value === '') setText(current.workspace ?? '');
  };
  return (
    <form
      className="workspace-picker"
      onSubmit={(event) => {
        event.preventDefault();
        commit();
      }}
    >
      <label htmlFor={id}>
        <FolderTree size={14} aria-hidden="true" />
        <span>Workspace</span>
      </label>
      <input
        id={id}
        className="input mono"
        list={`${id}-list`}
        value={text}
        disabled={!current.serverId}
        placeholder={current.serverId ? 'System' : 'No server'}
        onChange={(event) => {
          setText(event.target.value);
        }}
        onBlur={commit}
        data-testid="workspace-picker"
      />
      <datalist id={`${id}-list`}>
        {suggestions.map((w) => (
          <option key={w} value={w} />
        ))}
      </datalist>
    </form>
  );
}
