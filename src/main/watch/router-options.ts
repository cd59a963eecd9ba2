/**
 * What a CompletionRouter is made with, and the events it emits.
 */
import type { NotificationPreferences } from '../../shared/contract';
import type { DebusineError } from '../../shared/errors';
import type { WorkRequestResponse } from '../../shared/models';
import type { CompletionNotification, Notifier } from '../notify/notifier';
import type { FailureReason } from '../results/failure-reason';
import type { CommandHook, CommandRun } from './command-hook';
import type { EndChecksOptions } from './end-checks';
import type { NeedsInputOptions } from './needs-input';
import type { WorkRequestSource } from './read-ahead';
import type { WatchList } from './watch-list';

/** What notifies besides the watch list: the settings' mode and workspaces. */
export type NotifyFilter = Pick<NotificationPreferences, 'mode' | 'workspaces'>;

export interface CompletionRouterOptions {
  client: WorkRequestSource;
  watchList: WatchList;
  notifier: Notifier<CompletionNotification>;
  /** What notifies at first (setFilter changes it); without it, the watch list only. */
  filter?: NotifyFilter;
  /**
   * Whether the signed-in user created this work request, for mode `mine` (the service
   * asks its UserDirectory); without it, only work requests started here count as mine.
   */
  isMine?: (workRequest: WorkRequestResponse) => Promise<boolean>;
  /**
   * Whether the server's list filters (by ids, status and task type: 0.13+). With it, a
   * backlog of completions (the replay after an outage) is read a page at a time instead
   * of one GET each; without it, no step names its workflow, so none is looked for waiting.
   */
  readsByIds?: () => Promise<boolean>;
  /** When the checks for waiting steps run (tests make them quicker). */
  needsInput?: Pick<NeedsInputOptions, 'debounceMs' | 'afterStartMs' | 'scanLimit'>;
  /** When workflows are read to find the ends no message tells (tests make them quicker). */
  endChecks?: Pick<EndChecksOptions, 'rootDelaysMs' | 'sweepFirstMs' | 'sweepMaxMs'>;
  /**
   * The program to run on each completion, asked for at each one (the service reads its
   * file then, so an edit applies at once); undefined: none.
   */
  commandHook?: () => Promise<CommandHook | undefined>;
  /**
   * Why a failed task failed (its build log's error line...), for the notification of the
   * task or of its workflow; without it, notifications name the result only.
   */
  explain?: (workRequest: WorkRequestResponse) => Promise<FailureReason | null>;
  /**
   * Why a work request failed, from the server alone: for a workflow, its first failed
   * step's reason. Used when the app did not see the failing step complete (it was
   * offline, or started after): the completions it missed are not sent again.
   */
  explainById?: (id: number) => Promise<FailureReason | null>;
}

/** What the renderer hears about; it re-fetches through normal requests. */
export interface WorkRequestChanged {
  workRequestId: number;
  rootId: number;
  status: string;
  result: string;
}

/**
 * A work request ended without a completion from the websocket (aborted, or completed
 * while the app was away), as a read of it found: the renderer hears of it as of a
 * completion.
 */
export interface WorkRequestEnded {
  workRequestId: number;
  completedAt: string;
  /** `completed` or `aborted`. */
  status: string;
  result: string;
  workspace: string;
  /** The workflow it belongs to; null for a root or a lone work request. */
  rootId: number | null;
}

export interface CompletionRouterEvents {
  notified: [CompletionNotification & { receivedAt: number; shownAt: number }];
  changed: [WorkRequestChanged];
  ended: [WorkRequestEnded];
  /** The user clicked a notification: show this work request (or waiting step) in the app. */
  open: [number];
  /** The user clicked a failure's notification: show its log at the line that says why. */
  openLog: [NonNullable<FailureReason['log']> & { workRequestId: number }];
  /** The user chose "Retry" on a notification. */
  retry: [number];
  /** The user chose "Sign and upload" on the notification of a step that waits for it. */
  sign: [number];
  /**
   * The user chose "Open in browser" on a notification. The listener opens the page with a
   * client of the server that showed it: the app may have moved to another server since,
   * and closed this router's client.
   */
  openInBrowser: [number];
  command: [{ workRequestId: number; run?: CommandRun; error?: DebusineError }];
  /** The watcher dropped a flood of completions: the watched items are read instead. */
  overflow: [];
  error: [DebusineError];
}
