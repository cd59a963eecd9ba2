/**
 * From completions to notifications: which completions concern the user (watch list,
 * "mine", or a whole workspace), one notification per workflow (steps are grouped under
 * their root, which notifies when it completes), the optional command hook, and the
 * catch-up of watched items after each (re)connection. Transport-independent: the
 * service wires the events to the renderer.
 */
import { EventEmitter } from 'node:events';
import { DebusineError } from '../../shared/errors';
import type { NotificationPreferences } from '../../shared/contract';
import type { WorkRequestResponse } from '../../shared/models';
import { BoundedMap, BoundedSet } from '../bounded';
import {
  completionNotification,
  notificationKey,
  type About,
} from '../notify/completion-notification';
import type { CompletionNotification, Notifier } from '../notify/notifier';
import type { FailureReason } from '../results/failure-reason';
import { runCommandHook, type CommandHook, type CommandRun } from './command-hook';
import { ReadAhead, type WorkRequestSource } from './read-ahead';
import { reportProblem } from './report';
import type { CompletionEvent, CompletionWatcher } from './completion-watcher';
import type { WatchList } from './watch-list';

export type { WorkRequestSource } from './read-ahead';

/** What notifies besides the watch list: the settings' mode and workspaces. */
export type NotifyFilter = Pick<NotificationPreferences, 'mode' | 'workspaces'>;

export interface CompletionRouterOptions {
  client: WorkRequestSource;
  watchList: WatchList;
  notifier: Notifier<CompletionNotification>;
  /** The server's site root, for "open in browser" (HttpTransport.siteUrl). */
  siteUrl: string;
  openExternal: (url: string) => void | Promise<void>;
  /** What notifies at first (setFilter changes it); without it, the watch list only. */
  filter?: NotifyFilter;
  /**
   * Whether the signed-in user created this work request, for mode `mine` (the service
   * asks its UserDirectory); without it, only work requests started here count as mine.
   */
  isMine?: (workRequest: WorkRequestResponse) => Promise<boolean>;
  /**
   * Whether the server's list filters by ids (0.12+). With it, a backlog of completions
   * (the replay after an outage) is read a page at a time instead of one GET each.
   */
  readsByIds?: () => Promise<boolean>;
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
}

/** What the renderer hears about; it re-fetches through normal requests. */
export interface WorkRequestChanged {
  workRequestId: number;
  rootId: number;
  status: string;
  result: string;
}

export interface CompletionRouterEvents {
  notified: [CompletionNotification & { receivedAt: number; shownAt: number }];
  changed: [WorkRequestChanged];
  /** The user clicked a notification: show this work request in the app. */
  open: [number];
  /** The user clicked a failure's notification: show its log at the line that says why. */
  openLog: [NonNullable<FailureReason['log']> & { workRequestId: number }];
  /** The user chose "Retry" on a notification. */
  retry: [number];
  command: [{ workRequestId: number; run?: CommandRun; error?: DebusineError }];
  error: [DebusineError];
}

/**
 * Completions remembered so that a work request watched just after it completed still
 * notifies (a noop takes a fraction of a second, less than the request that starts it).
 */
const RECENT_LIMIT = 500;
/**
 * Completions already notified. A completion can reach the router more than once (the
 * catch-up after a reconnection and the server's replay of the same outage); the watcher
 * drops the server's resends over as many completions.
 */
const NOTIFIED_LIMIT = 10_000;

const FINISHED = new Set(['completed', 'aborted']);
/** Explanations kept: one per failed task, and the first failure of each workflow. */
const REASONS_LIMIT = 500;
/**
 * How long a failure's notification waits for its explanation (a build log to download
 * and read) before it is shown without one.
 */
const REASON_WAIT_MS = 4000;

function failed(result: string): boolean {
  return result !== 'success' && result !== 'skipped';
}

export class CompletionRouter extends EventEmitter<CompletionRouterEvents> {
  readonly #options: Readonly<CompletionRouterOptions>;
  #filter: NotifyFilter;
  #userId: number | undefined;
  readonly #notified = new BoundedSet<string>(NOTIFIED_LIMIT);
  readonly #recent = new BoundedMap<number, CompletionEvent>(RECENT_LIMIT);
  readonly #ahead: ReadAhead;
  /** Explanations by failed task, and by workflow root (its first failed step's). */
  readonly #reasons = new BoundedMap<number, Promise<FailureReason | null>>(REASONS_LIMIT);
  readonly #rootReasons = new BoundedMap<number, Promise<FailureReason | null>>(REASONS_LIMIT);
  #detach: (() => void) | undefined;

  constructor(options: CompletionRouterOptions) {
    super();
    this.#options = { ...options };
    this.#filter = copyFilter(options.filter ?? { mode: 'watched', workspaces: [] });
    this.#ahead = new ReadAhead(options.client, options.readsByIds);
  }

  /** What notifies besides the watch list, from the next completion on. */
  setFilter(filter: NotifyFilter): void {
    this.#filter = copyFilter(filter);
  }

  /**
   * Follows a watcher's connection: every `connected` triggers a catch-up of the watch list
   * (only then, so that no completion slips between the fetch and the websocket).
   * Completions themselves reach handleCompletion through the watcher's `onCompletion`
   * option, so the resume point only moves once the notification has been shown:
   *   const router = new CompletionRouter({...});
   *   const watcher = new CompletionWatcher({ ..., onCompletion: (e) => router.handleCompletion(e) });
   *   router.attach(watcher);
   */
  attach(watcher: CompletionWatcher): void {
    this.#detach?.();
    const onState = (state: { state: string }): void => {
      if (state.state === 'connected') void this.catchUp();
    };
    const onReceived = (event: CompletionEvent): void => {
      this.#ahead.queue(event.workRequestId);
    };
    watcher.on('state', onState);
    watcher.on('received', onReceived);
    this.#detach = () => {
      watcher.off('state', onState);
      watcher.off('received', onReceived);
      this.#ahead.clear();
    };
  }

  detach(): void {
    this.#detach?.();
    this.#detach = undefined;
  }

  /** A work request or workflow was started from the app: watch it automatically. */
  async started(workRequest: WorkRequestResponse): Promise<void> {
    if (typeof workRequest.created_by === 'number') this.#userId = workRequest.created_by;
    await this.#options.watchList.add(workRequest.id, 'started', workRequest.task_name);
    await this.#remember(workRequest);
    this.#notifyIfAlreadyCompleted(workRequest);
  }

  #notifyIfAlreadyCompleted(workRequest: WorkRequestResponse): void {
    const event = this.#recent.get(workRequest.id);
    if (event) void this.#notify(event, aboutOf(workRequest), rootOf(workRequest));
  }

  async #remember(workRequest: WorkRequestResponse): Promise<void> {
    const list = this.#options.watchList;
    if (!list.has(workRequest.id)) return;
    await list.describe(workRequest.id, {
      label: workRequest.task_name,
      taskType: workRequest.task_type,
      workspace: workRequest.workspace,
      rootId: rootOf(workRequest),
    });
    await list.setStatus(workRequest.id, workRequest.status, workRequest.result);
  }

  /**
   * Watches any work request by id (after `watcher.whenConnected()`, so that its current
   * state is read after the websocket is listening). Returns its current state.
   */
  async watch(id: number): Promise<WorkRequestResponse> {
    await this.#options.watchList.add(id, 'user');
    const workRequest = await this.#options.client.workRequestGet(id);
    await this.#remember(workRequest);
    this.#notifyIfAlreadyCompleted(workRequest);
    return workRequest;
  }

  /**
   * Handles one completion; resolves when its notification (if any) has been shown, with
   * the work request as read after its completion (undefined when it could not be read).
   */
  async handleCompletion(event: CompletionEvent): Promise<WorkRequestResponse | undefined> {
    if (this.#options.commandHook) void this.#runHook(event);
    this.#recent.set(event.workRequestId, event);
    const item = this.#options.watchList.get(event.workRequestId);
    // Fast path: a watched item already described is notified before any fetch, so the
    // notification follows the websocket message within milliseconds.
    // A failure waits for the work request, which says why it failed.
    if (
      item?.taskType != null &&
      item.workspace !== null &&
      item.label !== null &&
      !failed(event.result)
    ) {
      const about = { taskName: item.label, taskType: item.taskType, workspace: item.workspace };
      await this.#notify(event, about, item.rootId);
    }
    let workRequest = await this.#ahead.take(event.workRequestId);
    try {
      workRequest ??= await this.#options.client.workRequestGet(event.workRequestId);
    } catch (error) {
      // There is no permission filtering on the websocket: completions from workspaces
      // this user cannot see come through, and are not for us unless watched.
      if (item) await this.#notify(event, undefined, item.rootId);
      else if (!(
        error instanceof DebusineError && ['not-found', 'forbidden'].includes(error.code)
      )) {
        reportProblem(this, toError(error));
      }
      return undefined;
    }
    const rootId = workRequest.workflow_root ?? workRequest.id;
    if (item) await this.#remember({ ...workRequest, result: event.result });
    this.emit('changed', {
      workRequestId: workRequest.id,
      rootId,
      status: workRequest.status,
      result: event.result,
    });
    const isStep = rootId !== workRequest.id;
    const rootItem = isStep ? this.#options.watchList.get(rootId) : item;
    let concerns = Boolean(item ?? rootItem);
    // Steps of workflows nobody watches are only looked at when they failed, to explain
    // their workflow's failure.
    if (!concerns && (!isStep || failed(event.result))) {
      concerns = await this.#concerns(workRequest);
    }
    if (concerns && failed(event.result)) this.#explain({ ...workRequest, result: event.result });
    // A step notifies only when watched by itself; its workflow notifies once, as a whole.
    if (isStep && !item) return workRequest;
    if (concerns) await this.#notify(event, aboutOf(workRequest), rootOf(workRequest));
    return workRequest;
  }

  /** After (re)connecting: watched items that finished while we were away. */
  async catchUp(): Promise<void> {
    const pending = this.#options.watchList.data.items.filter(
      (item) => item.status === null || !FINISHED.has(item.status),
    );
    if (pending.length === 0) return;
    try {
      const ids = pending.map((item) => item.id);
      for await (const workRequest of this.#options.client.workRequestIter({ ids })) {
        const before = pending.find((item) => item.id === workRequest.id);
        if (!before) continue;
        if (
          FINISHED.has(workRequest.status) &&
          before.status !== null &&
          workRequest.completed_at
        ) {
          // Known unfinished before, finished now: the websocket replay may also bring it;
          // the key below makes sure only one notification is shown.
          await this.#notify(
            {
              workRequestId: workRequest.id,
              completedAt: workRequest.completed_at,
              result: workRequest.result,
              receivedAt: Date.now(),
            },
            aboutOf(workRequest),
            rootOf(workRequest),
          );
        }
        await this.#remember(workRequest);
      }
    } catch (error) {
      reportProblem(this, toError(error));
    }
  }

  async #concerns(workRequest: WorkRequestResponse): Promise<boolean> {
    const { mode, workspaces } = this.#filter;
    switch (mode) {
      case 'watched':
        return false;
      case 'mine':
        if (this.#userId !== undefined && workRequest.created_by === this.#userId) return true;
        return (await this.#options.isMine?.(workRequest).catch(() => false)) ?? false;
      case 'workspace':
        return workspaces.length === 0 || workspaces.includes(workRequest.workspace);
    }
  }

  /** Starts explaining a failed task, and keeps it as its workflow's first failure. */
  #explain(workRequest: WorkRequestResponse): void {
    const { explain } = this.#options;
    // A workflow's own reason is its first failed step's, kept when that step completed.
    if (!explain || workRequest.task_type !== 'Worker' || this.#reasons.has(workRequest.id)) {
      return;
    }
    const reason = explain(workRequest).catch((error: unknown) => {
      reportProblem(this, toError(error));
      return null;
    });
    this.#reasons.set(workRequest.id, reason);
    const root = workRequest.workflow_root;
    if (root !== null && root !== undefined && root !== workRequest.id) {
      if (!this.#rootReasons.has(root)) this.#rootReasons.set(root, reason);
    }
  }

  /** The explanation of this failed task or workflow, if one comes in time. */
  async #reasonFor(id: number): Promise<FailureReason | null> {
    const pending = this.#reasons.get(id) ?? this.#rootReasons.get(id);
    if (!pending) return null;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => {
        resolve(null);
      }, REASON_WAIT_MS);
    });
    try {
      return await Promise.race([pending, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async #notify(
    event: CompletionEvent,
    about: About | undefined,
    rootId: number | null,
  ): Promise<void> {
    const key = notificationKey(event);
    if (this.#notified.has(key)) return;
    this.#notified.add(key);
    const { notifier } = this.#options;
    const reason = failed(event.result) ? await this.#reasonFor(event.workRequestId) : null;
    const notification = completionNotification(
      event,
      about,
      rootId,
      notifier.supportsActions,
      reason,
    );
    const id = event.workRequestId;
    const log = reason?.log;
    notifier.show(notification, {
      onClick: () => {
        if (log) this.emit('openLog', { ...log, workRequestId: reason.workRequestId });
        else this.emit('open', id);
      },
      onAction: (action) => {
        if (action === 'retry') this.emit('retry', id);
        else void this.#openInBrowser(id);
      },
    });
    this.emit('notified', { ...notification, receivedAt: event.receivedAt, shownAt: Date.now() });
  }

  async #openInBrowser(id: number): Promise<void> {
    try {
      // The server's own web path carries the scope and workspace (`url`, 0.16); older
      // servers send none, so build it from the fields.
      const workRequest = await this.#options.client.workRequestGet(id);
      const path =
        workRequest.url ??
        `/${workRequest.scope ?? ''}/${workRequest.workspace}/work-request/${String(id)}/`;
      // Only pages of the server itself are opened, whatever path the server sent.
      const target = new URL(path, `${this.#options.siteUrl}/`);
      if (target.origin !== new URL(this.#options.siteUrl).origin) {
        throw new DebusineError('bad-response', `Work request ${String(id)} links off-site`, {
          operation: 'openInBrowser',
        });
      }
      await this.#options.openExternal(target.toString());
    } catch (error) {
      reportProblem(this, toError(error));
    }
  }

  async #runHook(event: CompletionEvent): Promise<void> {
    try {
      const hook = await this.#options.commandHook?.();
      if (!hook) return;
      const run = await runCommandHook(hook, event.workRequestId, event.result);
      this.emit('command', { workRequestId: event.workRequestId, run });
    } catch (error) {
      this.emit('command', { workRequestId: event.workRequestId, error: toError(error) });
    }
  }
}

function copyFilter(filter: NotifyFilter): NotifyFilter {
  return { mode: filter.mode, workspaces: [...filter.workspaces] };
}

function toError(error: unknown): DebusineError {
  return error instanceof DebusineError
    ? error
    : new DebusineError('internal', error instanceof Error ? error.message : String(error));
}

function aboutOf(workRequest: WorkRequestResponse): About {
  return {
    taskName: workRequest.task_name,
    taskType: workRequest.task_type,
    workspace: workRequest.workspace,
  };
}

/** The workflow a work request belongs to; null for a root or a lone work request. */
function rootOf(workRequest: WorkRequestResponse): number | null {
  return workRequest.workflow_root ?? null;
}
