import { Ban, Eye, EyeOff, ExternalLink, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import type { WorkRequestResponse } from '@shared/contract';
import { linkHref } from '@shared/models';
import { MutateButton } from '@renderer/components/mutate-button';
import { ConfirmDialog } from '@renderer/components/confirm-dialog';
import { CopyButton } from '@renderer/components/copy-button';
import { useMutationOf, useScope } from '@renderer/queries/hooks';
import { LiveLogButton } from './live-log-button';
import { canAbort, canRetry, cliCommand } from './model';
import { useWatchList, workRequestMutations } from '@renderer/queries/work-requests';
import { useOpen } from '@renderer/kit/navigation';

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The page's action bar: retry, abort, priority, watch, browser, CLI. */
export function WorkRequestActions(props: { wr: WorkRequestResponse }): React.JSX.Element {
  const { wr } = props;
  const { openWorkRequest } = useOpen();
  const [confirmAbort, setConfirmAbort] = useState(false);
  const retry = useMutationOf(workRequestMutations.retry, {
    onSuccess: (fresh) => {
      // Ordinary tasks are superseded by a new work request: go to it.
      if (fresh.id !== wr.id) openWorkRequest(fresh.id);
    },
  });
  const abort = useMutationOf(workRequestMutations.abort);
  const watch = useWatchList();
  const watched = watch.data?.some((w) => w.workRequestId === wr.id) ?? false;
  const toggleWatch = useMutationOf(workRequestMutations.watch);
  const openInBrowser = useMutationOf(workRequestMutations.openWebPage);
  // The page's server: main gives its address only while that server is the active one.
  const scope = useScope();
  const webPath = wr.url ?? linkHref(wr.links.webui_self) ?? `/work-request/${String(wr.id)}/`;
  const error = retry.error ?? abort.error ?? toggleWatch.error ?? openInBrowser.error;
  return (
    <>
      <div className="wr-actions" role="toolbar" aria-label="Work request actions">
        <MutateButton
          className="button"
          mutation={retry}
          input={wr.id}
          disabled={!canRetry(wr)}
          title={
            canRetry(wr) ? undefined : 'Only aborted or unsuccessful work requests can be retried'
          }
        >
          <RotateCcw size={14} aria-hidden="true" />
          {retry.isPending ? 'Retrying…' : 'Retry'}
        </MutateButton>
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
        <LiveLogButton wr={wr} />
        <PriorityControl wr={wr} />
        <span className="sep" aria-hidden="true" />
        <MutateButton
          className="button"
          aria-pressed={watched}
          mutation={toggleWatch}
          input={{ id: wr.id, watched, label: wr.task_name }}
          disabled={watch.isPending}
        >
          {watched ? <EyeOff size={14} aria-hidden="true" /> : <Eye size={14} aria-hidden="true" />}
          {watched ? 'Unwatch' : 'Watch'}
        </MutateButton>
        <button
          type="button"
          className="button"
          disabled={scope === undefined}
          onClick={() => {
            if (scope !== undefined) openInBrowser.mutate({ server: scope, path: webPath });
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
          abort.mutate(wr.id);
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
  const [value, setValue] = useState(String(wr.priority_adjustment));
  const [lastSeen, setLastSeen] = useState(wr.priority_adjustment);
  if (lastSeen !== wr.priority_adjustment) {
    setLastSeen(wr.priority_adjustment);
    setValue(String(wr.priority_adjustment));
  }
  const parsed = Number(value);
  const valid = value.trim() !== '' && Number.isInteger(parsed);
  const set = useMutationOf(workRequestMutations.setPriority);
  return (
    <form
      className="wr-priority"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) set.mutate({ id: wr.id, priorityAdjustment: parsed });
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
