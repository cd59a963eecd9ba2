import { CircleCheck, CircleStop, CircleX, Download, X } from 'lucide-react';
import { formatBytes } from '@renderer/components/format';
import { visibleText } from '@shared/visible-text';
import { ErrorState } from '@renderer/kit/errors/error-state';
import type { DownloadRow } from '@renderer/kit/download-file';

/** The downloads started from this page, with progress (Electron) or "handed over" (web). */
export function DownloadList(props: {
  rows: DownloadRow[];
  onDismiss: (key: string) => void;
  onCancel: (key: string) => void;
}): React.JSX.Element | null {
  if (props.rows.length === 0) return null;
  return (
    <ul className="row-list download-list" aria-label="Downloads">
      {props.rows.map((row) => {
        const job = row.job;
        const label = visibleText(row.label);
        const total = job?.totalBytes ?? null;
        const done = job?.receivedBytes ?? 0;
        let status: React.ReactNode = 'Starting…';
        if (row.error) status = null;
        else if (row.handedToBrowser) status = 'Saved by the browser';
        else if (job?.state === 'completed') {
          status = (
            <span className="status-badge tone-success">
              <CircleCheck size={13} aria-hidden="true" /> Done · {formatBytes(done)}
            </span>
          );
        } else if (job?.state === 'cancelled') {
          status = (
            <span className="status-badge tone-muted">
              <CircleStop size={13} aria-hidden="true" /> Cancelled · nothing was written
            </span>
          );
        } else if (job?.state === 'failed') {
          status = (
            <span className="status-badge tone-danger">
              <CircleX size={13} aria-hidden="true" /> {job.error?.message ?? job.state}
            </span>
          );
        } else if (job) {
          status = `${formatBytes(done)}${total ? ` of ${formatBytes(total)}` : ''}`;
        }
        return (
          <li key={row.key} className="download-row">
            <Download size={14} aria-hidden="true" className="muted" />
            <span className="mono download-label">{label}</span>
            {job?.state === 'running' ? (
              <progress value={done} max={total ?? undefined} aria-label={`Downloading ${label}`} />
            ) : null}
            <span className="download-status">{status}</span>
            {job?.state === 'running' ? (
              <button
                type="button"
                className="button small"
                aria-label={`Cancel ${label}`}
                onClick={() => {
                  props.onCancel(row.key);
                }}
              >
                Cancel
              </button>
            ) : null}
            <button
              type="button"
              className="icon-button"
              aria-label={`Dismiss ${label}`}
              onClick={() => {
                props.onDismiss(row.key);
              }}
            >
              <X size={13} aria-hidden="true" />
            </button>
            {row.error ? <ErrorState error={row.error} /> : null}
          </li>
        );
      })}
    </ul>
  );
}
