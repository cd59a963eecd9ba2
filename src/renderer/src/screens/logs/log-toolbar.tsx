/** The viewer's toolbar besides search: go to a line, wrap, outline, copy, link, download. */
import {
  Copy,
  Download,
  ExternalLink,
  Link,
  ListTree,
  WrapText,
  CornerDownRight,
} from 'lucide-react';
import { forwardRef, useId, useState } from 'react';
import { ToggleButton } from './toggle-button';

export interface ToolbarProps {
  totalLines: number;
  wrap: boolean;
  onWrap: () => void;
  /** null: the log has no outline (not an sbuild log, or not analysed yet). */
  outlineShown: boolean | null;
  onOutline: () => void;
  onGoTo: (line: number) => void;
  onCopy: () => void;
  copyLabel: string;
  /** null until the active server is known: a link names it. */
  onLink: (() => void) | null;
  onDownload: () => void;
  onOpenInBrowser: (() => void) | null;
  /** What the last action did ("Copied 3 lines"), or why it failed. */
  status: string;
}

export const LogToolbar = forwardRef<HTMLInputElement, ToolbarProps>(
  function LogToolbar(props, gotoRef) {
    const id = useId();
    const [text, setText] = useState('');
    const [error, setError] = useState<string | null>(null);
    const go = (event: React.SyntheticEvent): void => {
      event.preventDefault();
      const n = Number(text.trim());
      if (!Number.isSafeInteger(n) || n < 1 || n > props.totalLines) {
        setError(`Enter a line from 1 to ${props.totalLines.toLocaleString('en')}.`);
        return;
      }
      setError(null);
      props.onGoTo(n - 1);
    };
    return (
      <div className="log-toolbar" role="toolbar" aria-label="Log actions">
        <form className="log-goto" onSubmit={go}>
          <label htmlFor={`${id}-goto`} className="visually-hidden">
            Go to line (Ctrl+G)
          </label>
          <input
            ref={gotoRef}
            id={`${id}-goto`}
            className="input mono"
            inputMode="numeric"
            placeholder="Line"
            title="Go to line (Ctrl+G)"
            value={text}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-goto-err` : undefined}
            onChange={(event) => {
              setText(event.target.value);
            }}
          />
          <button type="submit" className="button small icon-only" aria-label="Go to line">
            <CornerDownRight size={14} aria-hidden="true" />
          </button>
          {error ? (
            <span id={`${id}-goto-err`} className="field-error" role="alert">
              {error}
            </span>
          ) : null}
        </form>
        <ToggleButton
          label="Wrap long lines"
          icon={WrapText}
          on={props.wrap}
          onToggle={props.onWrap}
        />
        {props.outlineShown !== null ? (
          <ToggleButton
            label="Show the outline"
            icon={ListTree}
            on={props.outlineShown}
            onToggle={props.onOutline}
          />
        ) : null}
        <button type="button" className="button small" onClick={props.onCopy}>
          <Copy size={13} aria-hidden="true" />
          {props.copyLabel}
        </button>
        <button
          type="button"
          className="button small"
          disabled={props.onLink === null}
          onClick={props.onLink ?? undefined}
        >
          <Link size={13} aria-hidden="true" />
          Link to line
        </button>
        <button type="button" className="button small" onClick={props.onDownload}>
          <Download size={13} aria-hidden="true" />
          Download
        </button>
        {props.onOpenInBrowser ? (
          <button type="button" className="button small" onClick={props.onOpenInBrowser}>
            <ExternalLink size={13} aria-hidden="true" />
            Open in browser
          </button>
        ) : null}
        <span className="log-status muted" role="status">
          {props.status}
        </span>
      </div>
    );
  },
);
