/**
 * Early warning of a failing build: the app follows the live log of the running sbuild
 * steps of watched workflows (a few at once), through the same analyser it reads finished
 * build logs with, and at the first line after which the build cannot succeed
 * (failing-line.ts) shows one notification, "sbuild hello 2.10-3 amd64 is failing", with
 * the line where the build broke, and the buttons "Open log here" (the live log at that
 * line) and "Abort". Once per step; never for a build that goes on to succeed, since only
 * lines that decide the failure count.
 *
 * Which steps run is read from the server (one list of the running worker tasks) when a
 * watched step completes, when the watch list changes and every POLL_MS while the list is
 * not empty: nothing else says that a step started.
 */
import type { WorkRequestResponse } from '../../shared/models';
import type { SbuildLogAnalysis } from '../../shared/log-types';
import type { DebusineClient } from '../api/client';
import { BoundedSet } from '../bounded';
import type { LiveLogStore } from '../logs/live-log-store';
import type { CompletionNotification, NotificationHandlers, Notifier } from '../notify/notifier';
import { marksBuildFailing } from './failing-line';
import type { WatchList } from './watch-list';
import { CoalescedRead } from './coalesced-read';

/** Live logs followed at once for early warnings. */
export const MAX_FOLLOWED = 3;
export const EARLY_WARNING_POLL_MS = 10_000;
/** Running worker tasks read at most per check. */
const SCAN_LIMIT = 200;
/** Steps remembered as warned about or followed to their end. */
const REMEMBERED = 2000;
const MAX_QUOTE = 200;

export interface EarlyWarningOptions {
  apiUrl: string;
  client: Pick<DebusineClient, 'workRequestGet' | 'workRequestIter'>;
  watchList: WatchList;
  live: LiveLogStore;
  notifier: Notifier<CompletionNotification>;
  /** What a click and the buttons do, for the step and the live line. */
  handlersFor: (stepId: number, line: number) => NotificationHandlers;
  /** Whether the server filters its list by status and task type (0.13+). */
  listFilters?: () => Promise<boolean>;
  pollMs?: number;
  onError: (error: unknown) => void;
}

interface Followed {
  handle: string;
  onLine: (text: string, line: number) => void;
}

function quote(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_QUOTE ? `${line.slice(0, MAX_QUOTE - 1)}…` : line;
}

/** "sbuild hello 2.10-3 amd64" from the box sbuild opens its log with, else the step's id. */
function whatOf(step: WorkRequestResponse, analysis: SbuildLogAnalysis | null): string {
  const box = analysis?.outline.find((entry) => entry.kind === 'package')?.title ?? '';
  const named = /^(\S+) (\S+) \((\S+)\)/.exec(box);
  if (named) return `sbuild ${named[1] ?? ''} ${named[2] ?? ''} ${named[3] ?? ''}`;
  return `sbuild #${String(step.id)}`;
}

export class EarlyWarnings {
  readonly #options: EarlyWarningOptions;
  readonly #followed = new Map<number, Followed>();
  /** Steps warned about, or whose live log was followed to its end: never again. */
  readonly #done = new BoundedSet<number>(REMEMBERED);
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  #idle: (() => void)[] = [];

  /** One read of the running steps at a time (coalesced-read.ts). */
  readonly #reads: CoalescedRead;

  constructor(options: EarlyWarningOptions) {
    this.#options = options;
    this.#reads = new CoalescedRead(
      () => this.#checkOnce(),
      (error) => {
        options.onError(error);
      },
    );
  }

  start(): void {
    this.#timer = setInterval(() => {
      if (this.#options.watchList.data.items.length > 0) void this.check();
    }, this.#options.pollMs ?? EARLY_WARNING_POLL_MS);
    this.#timer.unref();
    void this.check();
  }

  /** Reads the running steps and follows the sbuild ones of watched workflows. */
  check(): Promise<void> {
    return this.#reads.run();
  }

  /** Resolves once no live log is followed (every followed one ended or warned). */
  idle(): Promise<void> {
    if (this.#followed.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#reads.stop();
    await Promise.all([...this.#followed.keys()].map((id) => this.#unfollow(id)));
  }

  #isClosed(): boolean {
    return this.#closed;
  }

  async #checkOnce(): Promise<void> {
    const { client, watchList, listFilters } = this.#options;
    if (this.#closed || watchList.data.items.length === 0) return;
    if (this.#followed.size >= MAX_FOLLOWED) return;
    if (listFilters && !(await listFilters())) return;
    let read = 0;
    for await (const step of client.workRequestIter({ status: 'running', taskType: 'Worker' })) {
      if (this.#isClosed()) return;
      // The filters are the server's to apply; what it sends is checked here all the same.
      const root = step.workflow_root;
      const watched = watchList.has(step.id) || (typeof root === 'number' && watchList.has(root));
      if (
        step.status === 'running' &&
        step.task_type === 'Worker' &&
        step.task_name === 'sbuild' &&
        watched &&
        !this.#done.has(step.id) &&
        !this.#followed.has(step.id)
      ) {
        await this.#follow(step);
        if (this.#followed.size >= MAX_FOLLOWED) return;
      }
      if (++read >= SCAN_LIMIT) return;
    }
  }

  async #follow(step: WorkRequestResponse): Promise<void> {
    const { live, apiUrl, client } = this.#options;
    let handle: string | null = null;
    const early: { text: string; line: number }[] = [];
    const onLine = (text: string, line: number): void => {
      if (this.#done.has(step.id) || !marksBuildFailing(text)) return;
      this.#done.add(step.id);
      // The handle is known once open has answered; a line before that waits for it.
      if (handle === null) early.push({ text, line });
      else this.#warn(step, handle, { text, line });
    };
    const opened = await live.open({
      apiUrl,
      workRequestId: step.id,
      sbuild: true,
      stillRunning: async () => (await client.workRequestGet(step.id)).status === 'running',
      onLine,
    });
    handle = opened.handle;
    this.#followed.set(step.id, { handle, onLine });
    for (const failing of early) this.#warn(step, handle, failing);
    void live.ended(handle, apiUrl).then(
      () => {
        this.#done.add(step.id);
        return this.#unfollow(step.id);
      },
      (error: unknown) => {
        this.#options.onError(error);
      },
    );
  }

  async #unfollow(id: number): Promise<void> {
    const followed = this.#followed.get(id);
    if (!followed) return;
    this.#followed.delete(id);
    await this.#options.live.close(followed.handle, followed.onLine);
    if (this.#followed.size === 0) {
      for (const resolve of this.#idle.splice(0)) resolve();
    }
    // A place came free: another running build may be followed now.
    if (!this.#closed) void this.check();
  }

  #warn(step: WorkRequestResponse, handle: string, failing: { text: string; line: number }): void {
    const { live, apiUrl, notifier } = this.#options;
    let analysis: SbuildLogAnalysis | null = null;
    try {
      analysis = live.state(handle, apiUrl).analysis;
    } catch {
      // Closed meanwhile: the failing line alone says it.
    }
    // Where the build broke, as the analyser finds it, else the line that decided it.
    const broke = analysis?.error ?? failing;
    const what = whatOf(step, analysis);
    const actions: CompletionNotification['actions'] = notifier.supportsActions
      ? [
          { id: 'open-log', label: 'Open log here' },
          { id: 'abort', label: 'Abort' },
        ]
      : [];
    const notification: CompletionNotification = {
      kind: 'completion',
      key: `failing-${String(step.id)}`,
      title: `${what} is failing`,
      body: `${quote(broke.text)} (live log line ${String(broke.line + 1)})\nWorkspace ${step.workspace} · still running`,
      workRequestId: step.id,
      actions,
      urgency: 'critical',
      result: 'failing',
      rootId: typeof step.workflow_root === 'number' ? step.workflow_root : null,
      reason: null,
      liveLine: broke.line,
    };
    // Still followed to its end: "Open log here" then opens this same copy, whose line
    // numbers are the notification's (a new connection would start where the server's
    // stream now begins, which drops its oldest chunks on a long build).
    notifier.show(notification, this.#options.handlersFor(step.id, broke.line));
  }
}
