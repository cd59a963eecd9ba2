/**
 * A text file of an artifact, read from main a window at a time: header, toolbar (search,
 * go to line, wrap, copy, link, download), for sbuild logs a summary bar and an outline,
 * and the virtualised lines. The first screen shows while the file is still arriving.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useBridge } from '@renderer/bridge';
import { useSaveArtifacts } from '@renderer/kit/download-file';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { LoadingState } from '@renderer/components/loading-state';
import type { LogWindowCache } from '@renderer/queries/log-window-cache';
import { useLogSearch, useOpenLog } from '@renderer/queries/logs';
import { logLink } from '@shared/log-link';
import type { LogState } from '@shared/log-types';
import { visibleText } from '@shared/visible-text';
import { LogBody, type LineRange } from './log-body';
import { LogHeader } from './log-header';
import { SearchBar, useSearchState } from './log-search';
import { LogToolbar } from './log-toolbar';
import { OutlinePanel, SummaryBar } from './log-outline';
import { readLines } from './log-actions';
import { copyText } from '@renderer/components/clipboard';
import { messageOf } from './messages';
import { LiveBar } from './live-bar';
import { useFollow } from './live-follow';
import { findSameLine, SAME_LINE_WINDOW } from './same-line';

export interface LogViewerProps {
  artifactId: number;
  path: string;
  /** The line asked for when the log was opened (0-based), scrolled to and marked. */
  line: number | null;
  /**
   * The text of that line where it was read (the live log of the step whose stored log this
   * is), after the texts of the lines before it: `line` is only an estimate, and the line
   * found by these texts near it is shown instead (same-line.ts).
   */
  lineTexts?: readonly string[] | null;
  category: string | null;
  backLabel: string;
  onBack: () => void;
  /** The file's page in the web UI, once known. */
  webUrl: string | null;
  /** The server profile the log is on (main opens it only while that one is active). */
  profile: string;
  /** The active server's API URL: a link to a line names the server it is on. */
  server: string | null;
  /** Keeps the selected line in the app's state, so that coming back shows it again. */
  onLineChange: (line: number) => void;
  cache?: LogWindowCache;
  /** Shows the live log of this running step instead of the artifact's file. */
  liveWorkRequestId?: number;
  /**
   * The live log ended with its step; `line` is the line to show of its stored log: the
   * newest while following, else the selected line when it is on screen, else the middle
   * of the screen (the stored log opens with its line in the middle, so that the same
   * lines stay on screen).
   */
  onLiveEnded?: (state: LogState, line: number) => void;
  /** Where a live log that cannot be streamed sends the user. */
  onLiveOpenInBrowser?: () => void;
}

export function LogViewer(props: LogViewerProps): React.JSX.Element {
  const bridge = useBridge();
  const open = useOpenLog(
    props.profile,
    props.artifactId,
    props.path,
    props.liveWorkRequestId ?? null,
  );
  const state = open.state;
  const handle = state?.handle ?? null;
  const totalLines = state?.state === 'failed' ? 0 : (state?.lines ?? 0);
  const analysis = state?.analysis ?? null;

  const [wrap, setWrap] = useState(false);
  const [outlineShown, setOutlineShown] = useState(true);
  const [selection, setSelection] = useState<LineRange | null>(
    props.line === null ? null : { from: props.line, to: props.line },
  );
  const [anchor, setAnchor] = useState<number | null>(props.line);
  const [marked, setMarked] = useState<number | null>(props.line);
  const [scrollRequest, setScrollRequest] = useState<{ line: number; seq: number } | null>(null);
  const [status, setStatus] = useState('');
  const visible = useRef({ first: 0, last: 0 });
  const searchInput = useRef<HTMLInputElement>(null);
  const gotoInput = useRef<HTMLInputElement>(null);

  const scrollTo = useCallback((line: number) => {
    setScrollRequest((current) => ({ line, seq: (current?.seq ?? 0) + 1 }));
  }, []);

  // The line asked for is scrolled to once it has arrived (and, when its text is given, the
  // lines around it, to find that text among); past the end of a log that has all arrived
  // (a live log's newest line can be one of the worker's own, after sbuild's log ends), the
  // last line is shown and marked instead.
  const pendingLine = useRef(props.line);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  const lineTexts = props.lineTexts ?? null;
  const complete = state?.state === 'ready';
  const { onLineChange } = props;
  useEffect(() => {
    const asked = pendingLine.current;
    if (asked === null || totalLines === 0 || handle === null) return;
    const needed = asked + (lineTexts === null ? 0 : SAME_LINE_WINDOW);
    if (totalLines <= needed && !complete) return;
    pendingLine.current = null;
    const show = (found: number): void => {
      const line = Math.min(found, totalLines - 1);
      if (line !== asked) {
        setMarked(line);
        setSelection({ from: line, to: line });
        setAnchor(line);
        onLineChange(line);
      }
      scrollTo(line);
    };
    if (lineTexts === null) {
      show(asked);
      return;
    }
    // Not cancelled when the log grows meanwhile: the line is looked for once.
    findSameLine(bridge, handle, asked, lineTexts).then(
      (found) => {
        if (mounted.current) show(found);
      },
      () => {
        if (mounted.current) show(asked);
      },
    );
  }, [totalLines, complete, scrollTo, handle, lineTexts, bridge, onLineChange]);

  const search = useSearchState(useLogSearch(handle), scrollTo);
  const step = (direction: 'next' | 'previous'): void => {
    search.step(direction, visible.current.first, totalLines);
  };

  const select = useCallback(
    (line: number, extend: boolean) => {
      const from = extend && anchor !== null ? Math.min(anchor, line) : line;
      const to = extend && anchor !== null ? Math.max(anchor, line) : line;
      setSelection({ from, to });
      if (!extend) setAnchor(line);
      onLineChange(line);
    },
    [anchor, onLineChange],
  );

  // A live log follows its tail unless it was opened at a line.
  const live = state?.live ?? null;
  const follow = useFollow(live !== null && props.line === null, totalLines, scrollTo);
  const followVisible = follow.onVisible;
  const onVisible = useCallback(
    (first: number, last: number) => {
      visible.current = { first, last };
      followVisible(first, last);
    },
    [followVisible],
  );

  const { onLiveEnded } = props;
  const endedTold = useRef(false);
  const following = follow.follow;
  useEffect(() => {
    if (state?.live?.status !== 'ended' || endedTold.current) return;
    endedTold.current = true;
    const { first, last } = visible.current;
    let line: number;
    if (following) line = Math.max(0, state.lines - 1);
    else if (selection !== null && selection.from >= first && selection.from <= last) {
      line = selection.from;
    } else line = first + Math.floor((last - first) / 2);
    onLiveEnded?.(state, line);
  }, [state, onLiveEnded, following, selection]);

  const goTo = (line: number): void => {
    setMarked(line);
    select(line, false);
    scrollTo(line);
  };

  const errorLines = useMemo(() => new Set(analysis?.errorLines ?? []), [analysis]);
  const { save } = useSaveArtifacts(props.profile);

  const report = (action: Promise<string>): void => {
    action.then(setStatus, (failure: unknown) => {
      setStatus(messageOf(failure));
    });
  };

  const copy = (): void => {
    if (handle === null) return;
    const range = selection ?? { from: visible.current.first, to: visible.current.first };
    report(
      readLines(bridge, handle, range.from, range.to).then(async (text) => {
        await copyText(text);
        const n = text === '' ? 0 : text.split('\n').length;
        return `Copied ${String(n)} line${n === 1 ? '' : 's'}.`;
      }),
    );
  };

  const { server } = props;
  const link = (server: string): void => {
    const line = selection?.from ?? visible.current.first;
    const { artifactId, path } = props;
    report(
      copyText(logLink({ server, artifactId, path, line })).then(
        () => `Copied a link to line ${String(line + 1)}.`,
      ),
    );
  };

  const webUrl = props.webUrl;
  const openInBrowser =
    webUrl === null
      ? null
      : () => {
          report(bridge.app.openExternal({ url: webUrl }).then(() => ''));
        };

  const openUrl = useCallback(
    (url: string) => {
      bridge.app.openExternal({ url }).catch((failure: unknown) => {
        setStatus(messageOf(failure));
      });
    },
    [bridge],
  );

  const onKeyDown = (event: React.KeyboardEvent): void => {
    const mod = event.ctrlKey || event.metaKey;
    if (event.key === 'F3') {
      event.preventDefault();
      step(event.shiftKey ? 'previous' : 'next');
    } else if (mod && event.key.toLowerCase() === 'g') {
      event.preventDefault();
      gotoInput.current?.focus();
      gotoInput.current?.select();
    } else if (mod && event.key.toLowerCase() === 'f') {
      event.preventDefault();
      searchInput.current?.focus();
      searchInput.current?.select();
    }
  };

  let body: React.JSX.Element;
  if (open.error !== null) {
    body = <ErrorState error={open.error} onRetry={open.retry} />;
  } else if (state === null) {
    body = <LoadingState label={`Opening ${visibleText(props.path)}…`} />;
  } else if (state.state === 'failed') {
    body = (
      <ErrorState
        error={state.error ?? new Error('Reading the file failed.')}
        onRetry={open.retry}
      />
    );
  } else {
    body = (
      <LogBody
        handle={state.handle}
        totalLines={totalLines}
        wrap={wrap}
        selection={selection}
        match={search.result?.line ?? null}
        errorLines={errorLines}
        marked={marked}
        scrollRequest={scrollRequest}
        onSelect={select}
        onVisible={onVisible}
        onOpenUrl={openUrl}
        {...(props.cache ? { cache: props.cache } : {})}
      />
    );
  }

  const lineCount = selection === null ? 0 : selection.to - selection.from + 1;
  return (
    // Keys (F3, Ctrl+G, Ctrl+F) work from anywhere inside the viewer.
    <article className="log-viewer" aria-labelledby="log-title" onKeyDown={onKeyDown}>
      <LogHeader
        path={props.path}
        artifactId={props.artifactId}
        category={props.category}
        state={state}
        backLabel={props.backLabel}
        onBack={props.onBack}
        onCancel={open.cancel}
      />
      <div className="log-bar">
        <SearchBar ref={searchInput} state={search} onStep={step} />
        <LogToolbar
          ref={gotoInput}
          totalLines={totalLines}
          wrap={wrap}
          onWrap={() => {
            setWrap((w) => !w);
          }}
          outlineShown={analysis === null ? null : outlineShown}
          onOutline={() => {
            setOutlineShown((shown) => !shown);
          }}
          onGoTo={goTo}
          onCopy={copy}
          copyLabel={lineCount > 1 ? `Copy ${String(lineCount)} lines` : 'Copy line'}
          onLink={
            server === null
              ? null
              : () => {
                  link(server);
                }
          }
          onDownload={() => {
            if (live === null) {
              const file = { artifactId: props.artifactId, path: props.path };
              report(save({ file }).then((told) => told ?? ''));
            } else setStatus('Its stored log can be downloaded once the step has ended.');
          }}
          onOpenInBrowser={openInBrowser}
          status={status}
        />
      </div>
      {live !== null ? (
        <LiveBar
          live={live}
          follow={follow.follow}
          onFollow={() => {
            follow.setFollow(!follow.follow);
          }}
          onOpenInBrowser={props.onLiveOpenInBrowser ?? (() => undefined)}
        />
      ) : null}
      {analysis !== null && (live === null || analysis.summary.status !== null) ? (
        // A running build has no summary yet: sbuild prints it at the end.
        <SummaryBar analysis={analysis} onJumpToError={goTo} />
      ) : null}
      <div className="log-main">
        {analysis !== null && outlineShown ? (
          <OutlinePanel analysis={analysis} onGo={goTo} />
        ) : null}
        {body}
      </div>
    </article>
  );
}
