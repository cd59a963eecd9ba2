/**
 * From completions to notifications: which completions concern the user (watch list,
 * "mine", or a whole workspace), one notification per workflow (steps are grouped under
 * their root, which notifies when it ends), the steps of watched workflows that wait for
 * the user (needs-input.ts), the optional command hook, the catch-up of watched items
 * after each (re)connection, and the reads that find the ends the websocket never tells:
 * a workflow aborted because a step failed, or by someone in the web UI (end-checks.ts).
 * Transport-independent: the service wires the events to the renderer.
 */
import { EventEmitter } from 'node:events';
import { DebusineError } from '../../shared/errors';
import type { WorkRequestResponse } from '../../shared/models';
import { BoundedMap, BoundedSet } from '../bounded';
import { endOf, hasEnded, isUnsuccessfulEnd } from '../../shared/results/end';
import {
  completionNotification,
  endOfCompletion,
  type About,
  type Completion,
} from '../notify/completion-notification';
import type { NotificationHandlers } from '../notify/notifier';
import { runCommandHook } from './command-hook';
import { NeedsInputWatch } from './needs-input';
import { EndChecks } from './end-checks';
import { FailureReasons } from './failure-reasons';
import { canonicalTimestamp } from './messages';
import { ReadAhead } from './read-ahead';
import { reportProblem } from './report';
import type { CompletionEvent, CompletionWatcher } from './completion-watcher';
import type { WatchItem } from './watch-list';
import type {
  CompletionRouterEvents,
  CompletionRouterOptions,
  NotifyFilter,
} from './router-options';

export type { WorkRequestSource } from './read-ahead';
export type {
  CompletionRouterEvents,
  CompletionRouterOptions,
  NotifyFilter,
  WorkRequestChanged,
  WorkRequestEnded,
} from './router-options';

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
/**
 * Watched work requests read per sweep, at most: one list read per ten of them. Those
 * watched last are read first; a watch list longer than this is swept a part at a time.
 */
export const SWEEP_LIMIT = 100;

/** An end to notify: a completion from the websocket, or an end found by reading. */
type EndEvent = Completion & { receivedAt: number };

export class CompletionRouter extends EventEmitter<CompletionRouterEvents> {
  readonly #options: Readonly<CompletionRouterOptions>;
  #filter: NotifyFilter;
  #userId: number | undefined;
  readonly #notified = new BoundedSet<string>(NOTIFIED_LIMIT);
  readonly #recent = new BoundedMap<number, CompletionEvent>(RECENT_LIMIT);
  readonly #ahead: ReadAhead;
  readonly #needsInput: NeedsInputWatch;
  /** Why failures failed; undefined when the service gave no way to tell. */
  readonly #reasons: FailureReasons | undefined;
  readonly #ends: EndChecks;
  /** Where the next sweep starts in the watch list, when it holds more than SWEEP_LIMIT. */
  #sweepFrom = 0;
  /** The catch-up after the watcher dropped completions, while it reads. */
  #catchingUp: Promise<void> | undefined;
  #catchUpAgain = false;
  #detach: (() => void) | undefined;
  /**
   * watch() and started() calls under way: close() waits for them, since whoever closes
   * the router closes its client and watch list next, and they read and write with both.
   */
  readonly #calls = new Set<Promise<unknown>>();
  #closed = false;

  constructor(options: CompletionRouterOptions) {
    super();
    this.#options = { ...options };
    this.#filter = copyFilter(options.filter ?? { mode: 'watched', workspaces: [] });
    this.#ahead = new ReadAhead(options.client, options.readsByIds);
    this.#needsInput = new NeedsInputWatch({
      ...options.needsInput,
      client: options.client,
      watchList: options.watchList,
      notifier: options.notifier,
      handlersFor: (id) => this.#handlersFor(id),
      ...(options.readsByIds ? { listFilters: options.readsByIds } : {}),
      onError: (error) => {
        reportProblem(this, toError(error));
      },
    });
    this.#reasons =
      options.explain &&
      new FailureReasons(
        options.explain,
        (error) => {
          reportProblem(this, toError(error));
        },
        options.explainById,
      );
    this.#ends = new EndChecks({
      ...options.endChecks,
      checkRoots: (ids) => this.#checkRoots(ids),
      sweep: () => this.#sweep(),
      onError: (error) => {
        reportProblem(this, toError(error));
      },
    });
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
      if (state.state === 'connected') {
        void this.catchUp();
        this.#ends.activity();
      }
    };
    const onReceived = (event: CompletionEvent): void => {
      this.#ahead.queue(event.workRequestId);
    };
    // The watcher dropped the completions waiting (a flood): they will never be handled, so
    // nothing is read ahead for them, and the watched items are read instead.
    const onOverflow = (): void => {
      this.#ahead.clear();
      this.#catchUpAfterOverflow();
    };
    watcher.on('state', onState);
    watcher.on('received', onReceived);
    watcher.on('overflow', onOverflow);
    this.#detach = () => {
      watcher.off('state', onState);
      watcher.off('received', onReceived);
      watcher.off('overflow', onOverflow);
      this.#ahead.clear();
    };
  }

  detach(): void {
    this.#detach?.();
    this.#detach = undefined;
  }

  /**
   * Detaches, drops the checks for waiting steps still to come, and waits for the one under
   * way and for the watch() and started() calls under way. Those asked for later refuse.
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.detach();
    await Promise.all([this.#needsInput.close(), this.#ends.close(), ...this.#calls]);
  }

  /**
   * Runs a watch() or started() call for close() to wait for, or refuses it once closed:
   * the check and the start are in one turn, so every call is either refused or waited for.
   */
  #call<T>(run: () => Promise<T>): Promise<T> {
    if (this.#closed) {
      return Promise.reject(
        new DebusineError('cancelled', 'Watching stopped: the app no longer watches this server'),
      );
    }
    const call = run();
    const ended = call.then(
      () => undefined,
      () => undefined,
    );
    this.#calls.add(ended);
    void ended.then(() => this.#calls.delete(ended));
    return call;
  }

  /** A work request or workflow was started from the app: watch it automatically. */
  started(workRequest: WorkRequestResponse): Promise<void> {
    return this.#call(() => this.#started(workRequest));
  }

  async #started(workRequest: WorkRequestResponse): Promise<void> {
    if (typeof workRequest.created_by === 'number') this.#userId = workRequest.created_by;
    await this.#options.watchList.add(workRequest.id, 'started', workRequest.task_name);
    await this.#remember(workRequest);
    this.#notifyIfAlreadyCompleted(workRequest);
    this.#needsInput.afterStart(workRequest);
    this.#ends.activity();
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
  watch(id: number): Promise<WorkRequestResponse> {
    return this.#call(() => this.#watch(id));
  }

  async #watch(id: number): Promise<WorkRequestResponse> {
    await this.#options.watchList.add(id, 'user');
    const workRequest = await this.#options.client.workRequestGet(id);
    await this.#remember(workRequest);
    this.#notifyIfAlreadyCompleted(workRequest);
    // A running workflow may wait for the user already.
    if (workRequest.task_type === 'Workflow' && !hasEnded(workRequest.status)) {
      this.#needsInput.schedule();
    }
    this.#ends.activity();
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
      !isUnsuccessfulEnd(event.result)
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
    // The workflow moved on: it may wait for the user now.
    if (isStep && rootItem) this.#needsInput.afterStep();
    let concerns = Boolean(item ?? rootItem);
    // Steps of workflows nobody watches are only looked at when they failed, to explain
    // their workflow's failure.
    if (!concerns && (!isStep || isUnsuccessfulEnd(event.result))) {
      concerns = await this.#concerns(workRequest);
    }
    if (concerns && isUnsuccessfulEnd(event.result))
      this.#reasons?.explain({ ...workRequest, result: event.result });
    // Its workflow may have ended with it, without a message of its own: aborted, when this
    // step failed and others needed it (or were aborted before). Watched workflows are read
    // after each step; others the mode notifies for, after a step that did not succeed,
    // which is what aborts a workflow (a step aborted by hand and then a success also end
    // one aborted; only the watched ones are read for that).
    if (isStep && (rootItem || (concerns && isUnsuccessfulEnd(event.result)))) {
      this.#ends.afterStep(rootId);
    } else if (item) {
      this.#ends.activity();
    }
    // A step notifies only when watched by itself; its workflow notifies once, as a whole.
    if (isStep && !item) return workRequest;
    if (concerns) await this.#notify(event, aboutOf(workRequest), rootOf(workRequest));
    return workRequest;
  }

  /**
   * After (re)connecting: watched items that ended while we were away (completed, or
   * aborted, which no completion message tells), and steps of watched workflows that
   * started waiting meanwhile.
   */
  async catchUp(): Promise<void> {
    if (this.#unfinished().length === 0) return;
    this.#needsInput.schedule();
    try {
      await this.#readWatched(this.#unfinished());
    } catch (error) {
      reportProblem(this, toError(error));
    }
  }

  /**
   * One catch-up for any number of overflows: while one reads, the overflows meanwhile ask
   * for a single one after it (what they dropped may have completed after its read).
   */
  #catchUpAfterOverflow(): void {
    if (this.#catchingUp) {
      this.#catchUpAgain = true;
      return;
    }
    this.emit('overflow');
    this.#catchingUp = this.catchUp().finally(() => {
      this.#catchingUp = undefined;
      if (this.#catchUpAgain && !this.#closed) {
        this.#catchUpAgain = false;
        this.#catchUpAfterOverflow();
      }
    });
  }

  /** Watched items not known to have ended (never read yet, or last seen running). */
  #unfinished(): WatchItem[] {
    return this.#options.watchList.data.items.filter(
      (item) => item.status === null || !hasEnded(item.status),
    );
  }

  /**
   * Reads a part of the unfinished watched items (end-checks.ts says when): whether any
   * had changed since last seen.
   */
  async #sweep(): Promise<boolean> {
    const pending = this.#unfinished();
    if (pending.length === 0) return false;
    // Newest first, and a long list a part at a time, each part in its turn.
    const ordered = [...pending].reverse();
    const from = this.#sweepFrom % ordered.length;
    const part = [...ordered.slice(from), ...ordered.slice(0, from)].slice(0, SWEEP_LIMIT);
    this.#sweepFrom = from + part.length;
    return this.#readWatched(part);
  }

  /**
   * Reads these watched items; notifies those known unfinished before and ended now, and
   * records what each is now. Whether any had changed.
   */
  async #readWatched(pending: WatchItem[]): Promise<boolean> {
    let changed = false;
    for await (const workRequest of this.#read(pending.map((item) => item.id))) {
      const before = pending.find((item) => item.id === workRequest.id);
      if (!before) continue;
      if (before.status !== workRequest.status || before.result !== workRequest.result) {
        changed = true;
      }
      // Known unfinished before, ended now: the websocket replay may also bring a completed
      // one; the key of #notify makes sure only one notification is shown.
      if (before.status !== null) await this.#ended(workRequest);
      await this.#remember(workRequest);
    }
    return changed;
  }

  /**
   * Reads workflow roots one of whose steps just completed (end-checks.ts): notifies those
   * that ended, as their mode says. The roots that have ended.
   */
  async #checkRoots(ids: number[]): Promise<number[]> {
    const ended: number[] = [];
    for (const id of ids) {
      if (this.#closed) break;
      let root: WorkRequestResponse;
      try {
        root = await this.#options.client.workRequestGet(id);
      } catch (error) {
        if (!(error instanceof DebusineError && ['not-found', 'forbidden'].includes(error.code))) {
          reportProblem(this, toError(error));
          continue;
        }
        // Gone or hidden: there is nothing more to read about it.
        ended.push(id);
        continue;
      }
      if (!hasEnded(root.status)) continue;
      ended.push(id);
      const item = this.#options.watchList.get(id);
      if (item ? item.status === null || !hasEnded(item.status) : await this.#concerns(root)) {
        await this.#ended(root);
      }
      if (item) await this.#remember(root);
    }
    return ended;
  }

  /**
   * A work request read now: if it has ended, notifies its end (once: #notify keeps the
   * key) and tells the app, as a completion from the websocket would.
   */
  async #ended(workRequest: WorkRequestResponse): Promise<void> {
    const end = endOf(workRequest);
    const completedAt = workRequest.completed_at;
    if (end === null || !completedAt) return;
    const event: EndEvent = {
      workRequestId: workRequest.id,
      completedAt,
      result: workRequest.result,
      status: workRequest.status,
      receivedAt: Date.now(),
    };
    const shown = await this.#notify(event, aboutOf(workRequest), rootOf(workRequest));
    if (!shown) return;
    // The program run on completion hears of an end found by reading too (an abort sends
    // no completion message), with "aborted" where a completion gives its result.
    if (this.#options.commandHook) void this.#runHook({ ...event, result: end });
    const rootId = workRequest.workflow_root ?? workRequest.id;
    this.emit('changed', {
      workRequestId: workRequest.id,
      rootId,
      status: workRequest.status,
      result: workRequest.result,
    });
    this.emit('ended', {
      workRequestId: workRequest.id,
      completedAt,
      status: workRequest.status,
      result: workRequest.result,
      workspace: workRequest.workspace,
      rootId: rootOf(workRequest),
    });
  }

  /**
   * Work requests by id: one list read per ten where the server's list filters by id, one
   * GET each where it does not (its list would be read whole to find them).
   */
  async *#read(ids: number[]): AsyncGenerator<WorkRequestResponse, void, undefined> {
    if (ids.length === 0) return;
    const byIds = await (this.#options.readsByIds?.().catch(() => false) ?? Promise.resolve(false));
    if (byIds) {
      yield* this.#options.client.workRequestIter({ ids });
      return;
    }
    for (const id of ids) {
      try {
        yield await this.#options.client.workRequestGet(id);
      } catch (error) {
        if (!(error instanceof DebusineError && ['not-found', 'forbidden'].includes(error.code))) {
          throw error;
        }
      }
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

  /**
   * Shows the notification of one end, unless it was shown already; whether it was shown
   * now. The same end may come from the websocket, its replay, and a read of the work
   * request (whose timestamp may be written otherwise): the key is the work request and
   * the instant, to the microsecond.
   */
  async #notify(
    event: EndEvent,
    about: About | undefined,
    rootId: number | null,
  ): Promise<boolean> {
    const key = `${String(event.workRequestId)}@${canonicalTimestamp(event.completedAt)}`;
    if (this.#notified.has(key)) return false;
    this.#notified.add(key);
    const { notifier } = this.#options;
    // A failure's reason, and an aborted workflow's: its first failed step's, if one failed.
    const reason = isUnsuccessfulEnd(endOfCompletion(event))
      ? ((await this.#reasons?.reasonFor(
          event.workRequestId,
          this.#options.watchList.has(event.workRequestId),
        )) ?? null)
      : null;
    const notification = completionNotification(
      event,
      about,
      rootId,
      notifier.supportsActions,
      reason,
    );
    const id = event.workRequestId;
    const log = reason?.log;
    const openLog = log
      ? () => {
          this.emit('openLog', { ...log, workRequestId: reason.workRequestId });
        }
      : undefined;
    notifier.show(notification, this.#handlersFor(id, openLog));
    this.emit('notified', { ...notification, receivedAt: event.receivedAt, shownAt: Date.now() });
    return true;
  }

  /**
   * What a notification about this work request does when clicked (by default, open it in
   * the app), and its buttons.
   */
  #handlersFor(id: number, openLog?: () => void): NotificationHandlers {
    return {
      onClick: openLog ?? (() => this.emit('open', id)),
      onAction: (action) => {
        if (action === 'retry') this.emit('retry', id);
        else if (action === 'open-log') (openLog ?? (() => this.emit('open', id)))();
        else if (action === 'sign') this.emit('sign', id);
        else this.emit('openInBrowser', id);
      },
    };
  }

  async #runHook(event: Pick<CompletionEvent, 'workRequestId' | 'result'>): Promise<void> {
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

/**
 * The workflow a work request belongs to; null for a root (whose workflow_root is itself
 * on current servers) or a lone work request.
 */
function rootOf(workRequest: WorkRequestResponse): number | null {
  const root = workRequest.workflow_root ?? null;
  return root === workRequest.id ? null : root;
}
