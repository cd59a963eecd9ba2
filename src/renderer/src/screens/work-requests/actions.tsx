import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Ban, Eye, EyeOff, ExternalLink, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import type { WorkRequestResponse } from '@shared/contract';
import { linkHref } from '@shared/models';
import { useBridge } from '@renderer/bridge';
import { ConfirmDialog } from '@renderer/components/confirm-dialog';
import { CopyButton } from '@renderer/components/copy-button';
import { keys } from '@renderer/queries/keys';
import { useUiStore } from '@renderer/state/ui-store';
import { canAbort, canRetry, cliCommand } from './model';
import { useWatchList } from './queries';

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The page's action bar: retry, abort, priority, watch, browser, CLI. */
export function WorkRequestActions(props: { wr: WorkRequestResponse }): React.JSX.Element {
  const { wr } = props;
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const openWorkRequest = useUiStore((s) => s.openWorkRequest);
  const [confirmAbort, setConfirmAbort] = useState(false);
  const settle = (fresh: WorkRequestResponse): void => {
    queryClient.setQueryData(keys.workRequests.detail(fresh.id), fresh);
    void queryClient.invalidateQueries({ queryKey: keys.workRequests.lists() });
  };
  const retry = useMutation({
    mutationFn: () => bridge.workRequests.retry({ id: wr.id }),
    onSuccess: (fresh) => {
      settle(fresh);
      void queryClient.invalidateQueries({ queryKey: keys.workRequests.detail(wr.id) });
      // Ordinary tasks are superseded by a new work request: go to it.
      if (fresh.id !== wr.id) openWorkRequest(fresh.id);
    },
  });
  const abort = useMutation({
    mutationFn: () => bridge.workRequests.abort({ id: wr.id }),
    onSuccess: settle,
  });
  const watch = useWatchList();
  const watched = watch.data?.some((w) => w.workRequestId === wr.id) ?? false;
  const toggleWatch = useMutation({
    mutationFn: () =>
      watched
        ? bridge.watch.remove({ workRequestId: wr.id })
        : bridge.watch.add({ workRequestId: wr.id, label: wr.task_name }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.watch.list() }),
  });
  const openInBrowser = useMutation({
    mutationFn: async () => {
      const path = wr.url ?? linkHref(wr.links.webui_self) ?? `/work-request/${String(wr.id)}/`;
      const url = await bridge.links.webui({ path });
      // In a browser (the web host) the page is already in one: a new tab is the equivalent.
      if (bridge.transport === 'web') window.open(url, '_blank', 'noopener');
      else await bridge.app.openExternal({ url });
    },
  });
  const error = retry.error ?? abort.error ?? toggleWatch.error ?? openInBrowser.error;
  return (
    <>
      <div className="wr-actions" role="toolbar" aria-label="Work request actions">
        <button
          type="button"
          className="button"
          disabled={!canRetry(wr) || retry.isPending}
          title={
            canRetry(wr) ? undefined : 'Only aborted or unsuccessful work requests can be retried'
          }
          onClick={() => {
            retry.mutate();
          }}
        >
          <RotateCcw size={14} aria-hidden="true" />
          {retry.isPending ? 'Retrying…' : 'Retry'}
        </button>
        <button
          type="button"
          className="button"
          disabled={!canAbort(wr) || abort.isPending}
          title={canAbort(wr) ? undefined : 'Only pending, blocked or running work can be aborted'}
          onClick={() => {
            setConfirmAbort(true);
          }}
        >
          <Ban size={14} aria-hidden="true" />
          {abort.isPending ? 'Aborting…' : 'Abort…'}
        </button>
        <PriorityControl wr={wr} />
        <span className="sep" aria-hidden="true" />
        <button
          type="button"
          className="button"
          aria-pressed={watched}
          disabled={toggleWatch.isPending || watch.isPending}
          onClick={() => {
            toggleWatch.mutate();
          }}
        >
          {watched ? <EyeOff size={14} aria-hidden="true" /> : <Eye size={14} aria-hidden="true" />}
          {watched ? 'Unwatch' : 'Watch'}
        </button>
        <button
          type="button"
          className="button"
          onClick={() => {
            openInBrowser.mutate();
          }}
        >
          <ExternalLink size={14} aria-hidden="true" />
          Open in browser
        </button>
        <CopyButton text={cliCommand('show', wr.id)} label="Copy CLI command" />
      </div>
      {error ? (
        <p className="inline-error" role="alert">
          {errorText(error)}
        </p>
      ) : null}
      <ConfirmDialog
        open={confirmAbort}
        title={`Abort work request #${String(wr.id)}?`}
        confirmLabel="Abort"
        danger
        onCancel={() => {
          setConfirmAbort(false);
        }}
        onConfirm={() => {
          setConfirmAbort(false);
          abort.mutate();
        }}
      >
        <p>
          {wr.task_name} ({wr.task_type}) will stop; a workflow aborts with its pending steps. It
          can be retried afterwards.
        </p>
      </ConfirmDialog>
    </>
  );
}

/**
 * The priority adjustment: lowering one's own is allowed; raising needs the
 * manage-priorities permission (the server says so if missing).
 */
function PriorityControl(props: { wr: WorkRequestResponse }): React.JSX.Element {
  const { wr } = props;
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const [value, setValue] = useState(String(wr.priority_adjustment));
  const [lastSeen, setLastSeen] = useState(wr.priority_adjustment);
  if (lastSeen !== wr.priority_adjustment) {
    setLastSeen(wr.priority_adjustment);
    setValue(String(wr.priority_adjustment));
  }
  const parsed = Number(value);
  const valid = value.trim() !== '' && Number.isInteger(parsed);
  const set = useMutation({
    mutationFn: () => bridge.workRequests.setPriority({ id: wr.id, priorityAdjustment: parsed }),
    onSuccess: (fresh) => {
      queryClient.setQueryData(keys.workRequests.detail(fresh.id), fresh);
      void queryClient.invalidateQueries({ queryKey: keys.workRequests.lists() });
    },
  });
  return (
    <form
      className="wr-priority"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) set.mutate();
      }}
    >
      <label htmlFor={`priority-${String(wr.id)}`} className="muted">
        Priority adj.
      </label>
      <input
        id={`priority-${String(wr.id)}`}
        className="input"
        type="number"
        step={1}
        value={value}
        aria-invalid={!valid}
        aria-describedby={set.error ? `priority-error-${String(wr.id)}` : undefined}
        onChange={(e) => {
          setValue(e.target.value);
        }}
      />
      <button
        type="submit"
        className="button small"
        disabled={!valid || parsed === wr.priority_adjustment || set.isPending}
      >
        Set
      </button>
      {set.error ? (
        <span id={`priority-error-${String(wr.id)}`} className="inline-error" role="alert">
          {errorText(set.error)}
        </span>
      ) : null}
    </form>
  );
}
