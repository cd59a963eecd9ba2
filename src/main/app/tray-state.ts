/**
 * The aggregate state the tray icon shows: offline, failed, needs input, running, all good
 * (or idle before anything is known). It is computed from a snapshot (the watch list, the
 * steps waiting for the user, the connection) that main refreshes on its events, plus the
 * failures the user has not looked at yet. Icons differ in shape as well as colour (not
 * everyone tells the colours apart, nor does a monochrome tray), and the tooltip and menu
 * carry the counts.
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { WatchEntry } from '../../shared/contract';
import { endedUnsuccessfully, isActive, knownResult } from '../../shared/results/end';
import { titleText } from '../../shared/shown-text';
import { cannotStartText } from '../../shared/results/queue';

export type TrayState = 'idle' | 'ok' | 'running' | 'needs-input' | 'failed' | 'offline';

export interface TraySnapshot {
  online: boolean;
  signedIn: boolean;
  watched: readonly WatchEntry[];
  /** Steps waiting for the user's input or signature. */
  needsInput: number;
  /** The user's pending work no connected worker can take, per architecture. */
  cannotStart?: readonly { name: string | null; waiting: number }[];
}

export interface TrayModel {
  snapshot: TraySnapshot;
  /** Watched work requests that failed since the user last looked at the window. */
  unseenFailures: ReadonlySet<number>;
}

export const INITIAL_TRAY: TrayModel = {
  snapshot: { online: true, signedIn: false, watched: [], needsInput: 0 },
  unseenFailures: new Set(),
};

export interface TrayItem {
  workRequestId: number;
  label: string;
}

export interface TrayView {
  state: TrayState;
  tooltip: string;
  counts: { running: number; failed: number; needsInput: number };
  /** The watched work requests, for the tray's menu (newest first). */
  items: TrayItem[];
  /** What of the user's cannot start, in words, or null. */
  cannotStart: string | null;
}

/**
 * Ended unsuccessfully: failed, errored, or aborted (a workflow whose step failed ends
 * aborted); each asks to be looked at.
 */
function isFailed(entry: WatchEntry): boolean {
  return (
    entry.lastStatus !== null &&
    endedUnsuccessfully({ status: entry.lastStatus, result: entry.lastResult ?? '' })
  );
}

/** A new snapshot: newly failed watched items count as unseen failures. */
export function updateTray(model: TrayModel, snapshot: TraySnapshot): TrayModel {
  const before = new Map(model.snapshot.watched.map((e) => [e.workRequestId, e]));
  const unseen = new Set(
    [...model.unseenFailures].filter((id) => snapshot.watched.some((e) => e.workRequestId === id)),
  );
  for (const entry of snapshot.watched) {
    const previous = before.get(entry.workRequestId);
    if (isFailed(entry) && !(previous && isFailed(previous))) unseen.add(entry.workRequestId);
  }
  return { snapshot, unseenFailures: unseen };
}

/** The window was shown: failures count as seen. */
export function acknowledge(model: TrayModel): TrayModel {
  return { ...model, unseenFailures: new Set() };
}

/**
 * A watched work request's line in the tray's menu. Its label is the server's task name and
 * its status and result the server's words: the line is bounded and made visible as a
 * notification's title is (shared/shown-text.ts), and the result is one the app knows.
 */
function describe(entry: WatchEntry): string {
  const what = entry.label ?? `Work request ${String(entry.workRequestId)}`;
  const status =
    entry.lastStatus === 'completed'
      ? entry.lastResult === null
        ? 'completed'
        : knownResult(entry.lastResult)
      : (entry.lastStatus ?? 'unknown');
  return titleText(`#${String(entry.workRequestId)} ${what}: ${status}`);
}

export function trayView(model: TrayModel): TrayView {
  const { snapshot } = model;
  const running = snapshot.watched.filter((e) => isActive(e.lastStatus ?? '')).length;
  const failed = model.unseenFailures.size;
  const counts = { running, failed, needsInput: snapshot.needsInput };
  let state: TrayState;
  let tooltip: string;
  if (!snapshot.online) {
    state = 'offline';
    tooltip = 'Debusine Desktop: offline';
  } else if (!snapshot.signedIn) {
    state = 'idle';
    tooltip = 'Debusine Desktop: not signed in';
  } else if (failed > 0) {
    state = 'failed';
    tooltip = `Debusine Desktop: ${String(failed)} failed`;
  } else if (snapshot.needsInput > 0) {
    state = 'needs-input';
    tooltip = `Debusine Desktop: ${String(snapshot.needsInput)} waiting for you`;
  } else if (running > 0) {
    state = 'running';
    tooltip = `Debusine Desktop: ${String(running)} running`;
  } else {
    state = snapshot.watched.length > 0 ? 'ok' : 'idle';
    tooltip = 'Debusine Desktop: all good';
  }
  // Work that cannot start is said whatever else is: a build that waits for a worker which
  // never comes otherwise looks like any other running one.
  const stuck =
    snapshot.online && snapshot.signedIn ? cannotStartText(snapshot.cannotStart ?? []) : null;
  if (stuck !== null) tooltip = `${tooltip}; ${stuck}`;
  const items = [...snapshot.watched]
    .sort((a, b) => b.workRequestId - a.workRequestId)
    .slice(0, 15)
    .map((e) => ({ workRequestId: e.workRequestId, label: describe(e) }));
  return { state, tooltip, counts, items, cannotStart: stuck };
}

export interface TrayActions {
  readonly showWindow: () => void;
  readonly quit: () => void;
  readonly openWorkRequest?: (id: number) => void;
}

/** The tray's menu: the counts, the watched work requests, and the window. */
export function trayMenuTemplate(
  view: TrayView,
  actions: TrayActions,
): MenuItemConstructorOptions[] {
  const { running, failed, needsInput } = view.counts;
  const summary = `${String(running)} running · ${String(failed)} failed · ${String(needsInput)} waiting for you`;
  const open = actions.openWorkRequest;
  return [
    { label: summary, enabled: false },
    ...(view.cannotStart === null ? [] : [{ label: view.cannotStart, enabled: false }]),
    { type: 'separator' },
    ...(view.items.length > 0
      ? view.items.map((item): MenuItemConstructorOptions => ({
          label: item.label,
          ...(open
            ? {
                click: () => {
                  open(item.workRequestId);
                },
              }
            : { enabled: false }),
        }))
      : [{ label: 'Nothing watched yet', enabled: false }]),
    { type: 'separator' },
    { label: 'Show Debusine Desktop', click: actions.showWindow },
    { label: 'Quit', click: actions.quit },
  ];
}
