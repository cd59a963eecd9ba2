/**
 * From completions to notifications: which completions concern the user (watch list,
 * "mine", or a whole workspace), one notification per workflow (steps are grouped under
 * their root, which notifies when it completes), the optional command hook, and the
 * catch-up of watched items after each (re)connection. Transport-independent: the
 * service wires the events to the renderer.
 */
import { EventEmitter } from 'node:events';
import { DebusineError } from '../../shared/errors';
import type { WorkRequestResponse } from '../../shared/models';
import type { DebusineClient } from '../api/client';
import type { DesktopNotification, NotificationAction, Notifier } from '../notify/notifier';
import { runCommandHook, type CommandHook, type CommandRun } from './command-hook';
import { reportProblem } from './report';
import type { CompletionEvent, CompletionWatcher } from './completion-watcher';
import type { WatchList } from './watch-list';

export type WorkRequestSource = Pick<DebusineClient, 'workRequestGet' | 'workRequestIter'>;

export interface CompletionRouterOptions {
  client: WorkRequestSource;
  watchList: WatchList;
  notifier: Notifier;
  /** The server's site root, for "open in browser" (HttpTransport.siteUrl). */
  siteUrl: string;
  openExternal: (url: string) => void | Promise<void>;
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
}

/** Work requests read in one list request when a backlog comes in. */
export const READ_AHEAD_BATCH = 50;
/**
 * How many completions must be waiting to make a backlog. Fewer (the ordinary trickle of a
 * busy server) are read one GET each, as the list's pages (10 work requests each) cost the
 * server more than a GET per work request when there are only a few to read.
 */
export const READ_AHEAD_FROM = 10;

/** What the renderer hears about; it re-fetches through normal requests. */
export interface WorkRequestChanged {
  workRequestId: number;
  rootId: number;
  status: string;
  result: string;
}

export interface CompletionRouterEvents {
  notified: [DesktopNotification & { receivedAt: number; shownAt: number }];
  changed: [WorkRequestChanged];
  /** The user clicked a notification: show this work request in the app. */
  open: [number];
  /** The user chose "Retry" on a notification. */
  retry: [number];
  command: [{ workRequestId: number; run?: CommandRun; error?: DebusineError }];
  error: [DebusineError];
}

const FINISHED = new Set(['completed', 'aborted']);
const RESULT_WORDS: Record<string, string> = {
  success: 'Succeeded',
  failure: 'Failed',
  error: 'Errored',
  'temporary failure': 'Failed temporarily',
  skipped: 'Skipped',
};

export class CompletionRouter extends EventEmitter<CompletionRouterEvents> {
  readonly #options: CompletionRouterOptions;
  #userId: number | undefined;
  readonly #notified = new Set<string>();
  /**
   * Completions seen lately, so that a work request that completes before started() or
   * watch() has added it (a noop takes a fraction of a second) still notifies.
   */
  readonly #recent = new Map<number, CompletionEvent>();
  #detach: (() => void) | undefined;
  /** Completions received and not handled yet, in the order received. */
  readonly #queued = new Set<number>();
  /** Work requests being read ahead for queued completions; these never reject. */
  readonly #ahead = new Map<number, Promise<WorkRequestResponse | undefined>>();
  #reading: Promise<void> = Promise.resolve();
  #batchesInFlight = 0;

  constructor(options: CompletionRouterOptions) {
    super();
    this.#options = options;
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
      this.#queued.add(event.workRequestId);
    };
    watcher.on('state', onState);
    watcher.on('received', onReceived);
    this.#detach = () => {
      watcher.off('state', onState);
      watcher.off('received', onReceived);
      this.#queued.clear();
    };
  }

  /**
   * Completions that queue up (the server's replay of what completed during an outage:
   * hundreds after a night away) are read in list requests of READ_AHEAD_BATCH ids, so
   * the queue does not wait for one GET per completion; while fewer than READ_AHEAD_FROM
   * wait, each is read by itself, as before. Every work request is still read after its
   * completion.
   */
  async #read(id: number): Promise<WorkRequestResponse | undefined> {
    const { readsByIds } = this.#options;
    const backlog = this.#queued.size >= READ_AHEAD_FROM;
    if (backlog && readsByIds && (await readsByIds().catch(() => false))) {
      if (!this.#ahead.has(id)) this.#readBatch(id);
      // Keep the next batch coming while this one is handled.
      if (this.#batchesInFlight < 2) this.#readBatch();
    }
    const ahead = this.#ahead.get(id);
    this.#ahead.delete(id);
    return ahead ? await ahead : undefined;
  }

  /** Reads `first` and the next queued work requests not being read yet. */
  #readBatch(first?: number): void {
    const batch = first === undefined ? [] : [first];
    for (const id of this.#queued) {
      if (batch.length >= READ_AHEAD_BATCH) break;
      if (id !== first && !this.#ahead.has(id)) batch.push(id);
    }
    if (batch.length === 0) return;
    const waiting = new Map<number, (wr: WorkRequestResponse | undefined) => void>();
    for (const id of batch) {
      this.#ahead.set(id, new Promise((resolve) => waiting.set(id, resolve)));
    }
    this.#batchesInFlight++;
    this.#reading = this.#reading.then(async () => {
      try {
        for await (const workRequest of this.#options.client.workRequestIter({ ids: batch })) {
          waiting.get(workRequest.id)?.(workRequest);
          waiting.delete(workRequest.id);
        }
      } catch {
        // Those not read yet are read one by one, which reports their problem if any.
      }
      // Not in the answer (say, another user's private workspace): read alone, as before.
      for (const resolve of waiting.values()) resolve(undefined);
      this.#batchesInFlight--;
    });
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
    if (event) this.#notify(event, aboutOf(workRequest));
  }

  async #remember(workRequest: WorkRequestResponse): Promise<void> {
    const list = this.#options.watchList;
    if (!list.has(workRequest.id)) return;
    await list.describe(workRequest.id, {
      label: workRequest.task_name,
      taskType: workRequest.task_type,
      workspace: workRequest.workspace,
      rootId: workRequest.workflow_root ?? null,
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

  /** Handles one completion; resolves when its notification (if any) has been shown. */
  async handleCompletion(event: CompletionEvent): Promise<void> {
    if (this.#options.commandHook) void this.#runHook(event);
    this.#recent.set(event.workRequestId, event);
    if (this.#recent.size > 500) {
      const oldest = this.#recent.keys().next().value;
      if (oldest !== undefined) this.#recent.delete(oldest);
    }
    const item = this.#options.watchList.get(event.workRequestId);
    // Fast path: a watched item already described is notified before any fetch, so the
    // notification follows the websocket message within milliseconds.
    if (item?.taskType != null && item.workspace !== null && item.label !== null) {
      this.#notify(event, {
        taskName: item.label,
        taskType: item.taskType,
        workspace: item.workspace,
      });
    }
    let workRequest = await this.#read(event.workRequestId);
    this.#queued.delete(event.workRequestId);
    try {
      workRequest ??= await this.#options.client.workRequestGet(event.workRequestId);
    } catch (error) {
      // There is no permission filtering on the websocket: completions from workspaces
      // this user cannot see come through, and are not for us unless watched.
      if (item) this.#notify(event, undefined);
      else if (!(
        error instanceof DebusineError && ['not-found', 'forbidden'].includes(error.code)
      )) {
        reportProblem(this, toError(error));
      }
      return;
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
    // A step notifies only when watched by itself; its workflow notifies once, as a whole.
    if (isStep && !item) return;
    if (item || (await this.#concerns(workRequest))) this.#notify(event, aboutOf(workRequest));
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
          this.#notify(
            {
              workRequestId: workRequest.id,
              completedAt: workRequest.completed_at,
              result: workRequest.result,
              receivedAt: Date.now(),
            },
            aboutOf(workRequest),
          );
        }
        await this.#remember(workRequest);
      }
    } catch (error) {
      reportProblem(this, toError(error));
    }
  }

  async #concerns(workRequest: WorkRequestResponse): Promise<boolean> {
    const list = this.#options.watchList;
    switch (list.mode) {
      case 'watched':
        return false;
      case 'mine':
        if (this.#userId !== undefined && workRequest.created_by === this.#userId) return true;
        return (await this.#options.isMine?.(workRequest).catch(() => false)) ?? false;
      case 'workspace':
        return list.workspaces.length === 0 || list.workspaces.includes(workRequest.workspace);
    }
  }

  #notify(event: CompletionEvent, about: About | undefined): void {
    const key = `wr-${String(event.workRequestId)}@${event.completedAt}`;
    if (this.#notified.has(key)) return;
    this.#notified.add(key);
    const notification = describe(event, about, this.#options.notifier.supportsActions);
    const id = event.workRequestId;
    this.#options.notifier.show(notification, {
      onClick: () => this.emit('open', id),
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

function toError(error: unknown): DebusineError {
  return error instanceof DebusineError
    ? error
    : new DebusineError('internal', error instanceof Error ? error.message : String(error));
}

/** What a notification says about the work request. */
export interface About {
  taskName: string;
  taskType: string;
  workspace: string;
}

function aboutOf(workRequest: WorkRequestResponse): About {
  return {
    taskName: workRequest.task_name,
    taskType: workRequest.task_type,
    workspace: workRequest.workspace,
  };
}

/** Title "Failed: workflow sbuild #42"; body with workspace and result. */
export function describe(
  event: Pick<CompletionEvent, 'workRequestId' | 'completedAt' | 'result'>,
  about: About | undefined,
  supportsActions: boolean,
): DesktopNotification {
  const id = event.workRequestId;
  const word = RESULT_WORDS[event.result] ?? (event.result || 'Finished');
  const what = about
    ? `${about.taskType === 'Workflow' ? 'workflow ' : ''}${about.taskName}`
    : 'work request';
  const body = about
    ? `Workspace ${about.workspace} · result: ${event.result || 'none'}`
    : `Result: ${event.result || 'none'}`;
  const failed = event.result !== 'success' && event.result !== 'skipped';
  const actions: NotificationAction[] = [];
  if (supportsActions) {
    if (failed) actions.push({ id: 'retry', label: 'Retry' });
    actions.push({ id: 'open-in-browser', label: 'Open in browser' });
  }
  return {
    key: `wr-${String(id)}@${event.completedAt}`,
    title: `${word}: ${what} #${String(id)}`,
    body,
    workRequestId: id,
    actions,
    urgency: failed ? 'critical' : 'normal',
  };
}
