/** The viewer's header: back, the file and its artifact, and how much of it has arrived. */
import { ArrowLeft, CircleStop } from 'lucide-react';
import type { LogState } from '@shared/log-types';
import { visibleText } from '@shared/visible-text';
import { formatBytes } from '@renderer/components/format';

/** "412,000 lines so far, 27 MiB of 100 MiB" while loading; "1,500,000 lines, 100 MiB" after. */
export function progressLabel(state: LogState): string {
  const lines = `${state.lines.toLocaleString('en')} line${state.lines === 1 ? '' : 's'}`;
  // A live log has no size to reach: it grows until its step ends.
  if (state.live && state.state === 'loading')
    return `${lines} so far, ${formatBytes(state.bytes)}`;
  if (state.state === 'ready') return `${lines}, ${formatBytes(state.size)}`;
  if (state.state === 'failed') {
    const how = state.error?.code === 'cancelled' ? 'Stopped' : 'Failed';
    return `${how} after ${formatBytes(state.bytes)}`;
  }
  return `${lines} so far, ${formatBytes(state.bytes)} of ${formatBytes(state.size)}`;
}

export function LogHeader(props: {
  path: string;
  artifactId: number;
  category: string | null;
  state: LogState | null;
  backLabel: string;
  onBack: () => void;
  /** Stops the file from arriving. */
  onCancel: () => void;
}): React.JSX.Element {
  const { state } = props;
  return (
    <header className="log-head">
      <button type="button" className="button small" onClick={props.onBack}>
        <ArrowLeft size={13} aria-hidden="true" />
        {props.backLabel}
      </button>
      <div className="log-title">
        <h2 id="log-title" className="mono">
          {visibleText(props.path)}
        </h2>
        {state?.live ? (
          <span className="muted">
            work request <span className="mono">#{state.live.workRequestId}</span> · streamed as it
            runs
          </span>
        ) : (
          <span className="muted">
            artifact <span className="mono">#{props.artifactId}</span>
            {props.category ? ` · ${props.category}` : ''}
          </span>
        )}
      </div>
      <div className="log-progress" aria-live="polite">
        {state === null ? (
          <span className="muted">Opening…</span>
        ) : (
          <>
            {state.state === 'loading' && !state.live ? (
              <progress
                max={Math.max(1, state.size)}
                value={state.bytes}
                aria-label="Loading the file"
              />
            ) : null}
            <span className="muted" data-testid="log-progress">
              {progressLabel(state)}
              {state.fromCache ? ' (from the cache)' : ''}
            </span>
            {state.state === 'loading' ? (
              <button type="button" className="button small" onClick={props.onCancel}>
                <CircleStop size={13} aria-hidden="true" />
                Stop
              </button>
            ) : null}
          </>
        )}
      </div>
    </header>
  );
}
