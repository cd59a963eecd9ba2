/**
 * A log opened in main, seen from the viewer: the handle is owned by the component that
 * shows it (opened on mount, closed on unmount), its progress follows `logs.progress`,
 * and its lines are read a window at a time into a bounded cache (log-window-cache.ts).
 * The lines do not go through react-query: the file stays in main, and what the renderer
 * holds is only what is on screen and near it.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useBridge } from '@renderer/bridge';
import type { LogLine, LogSearchResult, LogState, SearchUntil } from '@shared/log-types';
import { defineQuery, type Scope } from './define';
import { LogWindowCache, WINDOW_LINES } from './log-window-cache';

export const logQueries = {
  /** A file's page in the server's web UI (`path` is the web path, from the artifact's). */
  webFile: (scope: Scope, artifactId: number, filePath: string, webPath: string) =>
    defineQuery(
      [scope, 'artifacts', 'detail', artifactId, 'webui-file', filePath],
      (bridge) => bridge.links.webui({ server: scope, path: webPath }),
      { staleTime: Infinity },
    ),
};

export interface OpenLog {
  state: LogState | null;
  /** Why it could not be opened (the state's own `error` says why reading failed). */
  error: unknown;
  retry: () => void;
  /** Stops the file from arriving (a slow server, a file larger than wanted). */
  cancel: () => void;
}

/**
 * `path` of artifact `artifactId` of `server`, or with `liveWorkRequestId`, the live log of
 * that running step (logs.openLive), opened in main while the caller is mounted: the same
 * handle, windows and progress either way.
 */
export function useOpenLog(
  server: string,
  artifactId: number,
  path: string,
  liveWorkRequestId: number | null = null,
): OpenLog {
  const bridge = useBridge();
  const [state, setState] = useState<LogState | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let handle: string | null = null;
    let gone = false;
    // Progress may arrive before the open's answer names the handle: the latest is kept.
    let early: LogState | null = null;
    const off = bridge.on('logs.progress', (next) => {
      if (gone) return;
      if (handle === null) {
        if (early?.handle === next.handle && !isNewer(next, early)) return;
        early = next;
      } else if (next.handle === handle) {
        setState(next);
      }
    });
    const opening =
      liveWorkRequestId === null
        ? bridge.logs.open({ server, artifactId, path })
        : bridge.logs.openLive({ server, workRequestId: liveWorkRequestId });
    opening.then(
      (opened) => {
        handle = opened.handle;
        if (gone) {
          void bridge.logs.close({ handle }).catch(() => undefined);
          return;
        }
        const seen = early?.handle === handle ? early : null;
        setState(seen !== null && isNewer(seen, opened) ? seen : opened);
      },
      (failure: unknown) => {
        if (!gone) setError(failure);
      },
    );
    return () => {
      gone = true;
      off();
      if (handle !== null) void bridge.logs.close({ handle }).catch(() => undefined);
    };
  }, [bridge, server, artifactId, path, liveWorkRequestId, attempt]);

  const retry = useCallback(() => {
    setState(null);
    setError(null);
    setAttempt((n) => n + 1);
  }, []);
  const handle = state?.handle ?? null;
  const cancel = useCallback(() => {
    if (handle === null) return;
    bridge.logs.cancel({ handle }).then(setState, (failure: unknown) => {
      setError(failure);
    });
  }, [bridge, handle]);
  return { state, error, retry, cancel };
}

/** Whether `a` says more than `b` about the same file (progress only moves forward). */
function isNewer(a: LogState, b: LogState): boolean {
  if (a.state !== b.state) return b.state === 'loading';
  return a.bytes > b.bytes || a.lines > b.lines;
}

export interface LogLines {
  /** The line if it is held (undefined while it is being read). */
  line: (index: number) => LogLine | undefined;
  /** Changes whenever lines arrive, so that rows re-render. */
  version: number;
  /** Why the last read failed, if it did. */
  error: unknown;
}

/**
 * The lines from `first` to `last` (inclusive) of the log `handle`, read a window at a
 * time; windows far from them are dropped as newer ones come in.
 */
export function useLogLines(
  handle: string | null,
  totalLines: number,
  first: number,
  last: number,
  /** Tests pass theirs, to look at what it holds; by default the hook keeps its own. */
  cache?: LogWindowCache,
): LogLines {
  const bridge = useBridge();
  const [windows] = useState(() => cache ?? new LogWindowCache());
  const inFlight = useRef(new Set<number>());
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    windows.clear();
    inFlight.current.clear();
  }, [handle, windows]);

  useEffect(() => {
    if (handle === null || totalLines === 0) return;
    const top = Math.max(0, Math.min(first, totalLines - 1));
    const bottom = Math.max(top, Math.min(last, totalLines - 1));
    const from = LogWindowCache.windowOf(top);
    const to = LogWindowCache.windowOf(bottom);
    for (let index = from; index <= to; index++) {
      windows.touch(index);
      if (!windows.needs(index, totalLines) || inFlight.current.has(index)) continue;
      inFlight.current.add(index);
      bridge.logs.lines({ handle, from: index * WINDOW_LINES, count: WINDOW_LINES }).then(
        (window) => {
          inFlight.current.delete(index);
          if (window.handle !== handle) return;
          windows.put(window);
          setVersion((v) => v + 1);
        },
        (failure: unknown) => {
          inFlight.current.delete(index);
          setError(failure);
        },
      );
    }
    // `version` too: a window read while the log was shorter comes back short after the
    // view already knows of more lines, and only a look after it arrived reads it again
    // (`needs` asks for a window once more only when the log grew past what it held).
  }, [bridge, handle, totalLines, first, last, windows, version]);

  const line = useCallback((index: number) => windows.line(index), [windows]);
  return { line, version, error };
}

export interface LogSearchQuery {
  query: string;
  regex: boolean;
  caseSensitive: boolean;
}

/**
 * Searches the log in main, from a line, forwards or backwards (wrapping around); until
 * the line is found, or until the whole count is known too (logs.search).
 */
export function useLogSearch(
  handle: string | null,
): (
  query: LogSearchQuery,
  fromLine: number,
  direction: 'next' | 'previous',
  until: SearchUntil,
) => Promise<LogSearchResult> {
  const bridge = useBridge();
  return useCallback(
    async (query, fromLine, direction, until) => {
      if (handle === null) throw new Error('The log is not open yet.');
      return bridge.logs.search({ handle, ...query, fromLine, direction, until });
    },
    [bridge, handle],
  );
}
