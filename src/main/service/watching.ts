/**
 * Watching: one CompletionWatcher + CompletionRouter for the active profile while it has a
 * token, restarted when the active server or its token changes and stopped on sign-out.
 * Its state is the contract's `connection.state`; completions become
 * `workRequest.completed`, `workRequests.changed` and (through the gate) notifications.
 */
import { join } from 'node:path';
import type { ServiceHandlers } from '../bridge/dispatch';
import type { DebusineClient } from '../api/client';
import type { EmitEvent } from '../bridge/event-outbox';
import type { UserDirectory } from '../identity/user-directory';
import type { Publication, Publications } from '../archives/publications';
import { serverKey } from '../signing/uploads-made';
import { actionFailedNotification } from '../notify/completion-notification';
import { NotificationGate } from '../notify/gate';
import {
  visibleNotification,
  type CompletionNotification,
  type NotificationActionId,
  type Notifier,
} from '../notify/notifier';
import { explainWorkRequest, type Explain } from '../results/explainer';
import { CompletionRouter, type CompletionRouterOptions } from '../watch/completion-router';
import { CompletionWatcher, type CompletionEvent } from '../watch/completion-watcher';
import { EarlyWarnings } from '../watch/early-warning';
import type { LiveLogStore } from '../logs/live-log-store';
import { ResumeFile } from '../watch/resume-state';
import { WatchList, type WatchItem } from '../watch/watch-list';
import { workRequestWebPage } from '../watch/web-page';
import type { Destination } from './navigation';
import type {
  ConnectionState,
  NotificationPreferences,
  NotificationRecord,
  SigningResult,
  WatchEntry,
} from '../../shared/contract';
import type { WorkRequestResponse } from '../../shared/models';
import { DebusineError } from '../../shared/errors';
import { CompletionCommandFile } from './completion-command';
import { connectionStateOf } from './connection-state';
import { signFromNotification } from './sign-from-notification';
import { NotificationSettingsStore } from './notification-settings';
import type { ProfileSession } from './profile-session';

type Handlers = Pick<
  ServiceHandlers,
  'connection.get' | 'watch.list' | 'watch.add' | 'watch.remove'
>;

interface Stack {
  key: string;
  profileId: string;
  watcher: CompletionWatcher;
  router: CompletionRouter;
  list: WatchList;
  /** Follows the live logs of watched running builds (absent without live logs). */
  early: EarlyWarnings | undefined;
  /** What the router reads with: the stack's own, closed once the stack has stopped. */
  client: DebusineClient;
}

/** The router's events that answer a click or a button of a notification it showed. */
const NOTIFICATION_ANSWERS = new Set<string | symbol>([
  'open',
  'openLog',
  'retry',
  'sign',
  'openInBrowser',
]);

function entryOf(item: WatchItem): WatchEntry {
  return {
    workRequestId: item.id,
    label: item.label,
    addedAt: item.addedAt,
    lastStatus: item.status,
    lastResult: item.result,
    source: item.source,
    taskType: item.taskType,
    workspace: item.workspace,
    rootId: item.rootId,
  };
}

export class WatchService {
  readonly settings: NotificationSettingsStore;
  /** The program run on each completion; main alone writes its file. */
  readonly commands: CompletionCommandFile;
  readonly gate: NotificationGate;
  readonly #session: ProfileSession;
  readonly #dataDir: string;
  readonly #users: UserDirectory | undefined;
  readonly #emit: EmitEvent;
  readonly #navigate: (destination: Destination) => void;
  readonly #notifier: Notifier;
  readonly #retry: (id: number) => Promise<WorkRequestResponse>;
  readonly #sign: ((profileId: string, id: number) => Promise<SigningResult>) | undefined;
  readonly #explainer: ((apiUrl: string, client: DebusineClient) => Explain) | undefined;
  readonly #openExternal: (url: string) => Promise<void>;
  readonly #live: LiveLogStore | undefined;
  readonly #publications: Publications | undefined;
  #stack: Stack | undefined;
  #switching: Promise<void> = Promise.resolve();
  #online = true;
  #state: ConnectionState = {
    serverId: null,
    status: 'signed-out',
    nextAttemptAt: null,
    since: new Date().toISOString(),
    error: null,
  };

  constructor(options: {
    session: ProfileSession;
    dataDir: string;
    /** Tells whose work requests are the user's ("mine" notifications). */
    users?: UserDirectory;
    notifier: Notifier;
    emit: EmitEvent;
    /** Shows a place on the server it names (navigation.ts): a click may come after a switch. */
    navigate: (destination: Destination) => void;
    /** Retries a work request as the app's retry request does (work-request-starts.ts). */
    retry: (id: number) => Promise<WorkRequestResponse>;
    /**
     * Signs a waiting step on the server it names and completes it, as the step's page
     * does (service/signing.ts); without it, "Sign and upload" opens the step's page.
     */
    sign?: (profileId: string, id: number) => Promise<SigningResult>;
    openExternal?: ((url: string) => Promise<void>) | undefined;
    /** Explains failures on a server, for their notifications (results/explainer.ts). */
    explainer?: (apiUrl: string, client: DebusineClient) => Explain;
    /** The live logs, for early warnings of failing builds (early-warning.ts). */
    live?: LiveLogStore;
    /** The publications to the user's suites, told once their suite is updated. */
    publications?: Publications;
  }) {
    this.#session = options.session;
    this.#users = options.users;
    this.#dataDir = options.dataDir;
    this.#emit = options.emit;
    this.#navigate = options.navigate;
    this.#notifier = options.notifier;
    this.#retry = options.retry;
    this.#sign = options.sign;
    this.#explainer = options.explainer;
    this.#openExternal = options.openExternal ?? (() => Promise.resolve());
    this.#live = options.live;
    this.#publications = options.publications;
    this.settings = new NotificationSettingsStore(options.dataDir);
    this.commands = new CompletionCommandFile(options.dataDir);
    this.gate = new NotificationGate({
      inner: options.notifier,
      settings: () => this.settings.get(),
      recorded: (record) => {
        this.#emit('notification.shown', record);
      },
      openList: (source) => {
        const server = source === null ? null : { profileId: source };
        this.#navigate({ target: { kind: 'work-requests' }, server });
      },
    });
  }

  get connection(): ConnectionState {
    return { ...this.#state };
  }

  /** The router of the active server, to watch what the app starts; undefined when signed out. */
  get router(): CompletionRouter | undefined {
    return this.#stack?.router;
  }

  /**
   * The notifications shown for the active server, newest first: another server's would
   * name its work requests by numbers that mean others here.
   */
  recentNotifications(): NotificationRecord[] {
    const active = this.#session.activeProfile()?.id ?? null;
    return this.gate.recent.filter((record) => record.serverId === active);
  }

  get watchList(): WatchList | undefined {
    return this.#stack?.list;
  }

  async start(): Promise<void> {
    await this.settings.load();
    await this.sync();
  }

  /** Brings the watcher in line with the active profile and its token. */
  sync(): Promise<void> {
    this.#switching = this.#switching.then(() => this.#sync()).catch(() => undefined);
    return this.#switching;
  }

  async #sync(): Promise<void> {
    const profile = this.#session.activeProfile();
    const token = profile ? await this.#session.tokenFor(profile.id) : undefined;
    const key =
      profile && token ? `${profile.id}|${profile.apiUrl}|${profile.scope}|${token.token}` : '';
    if (key === (this.#stack?.key ?? '')) return;
    await this.#stopStack();
    if (!profile || !token) {
      this.#setState({
        serverId: profile?.id ?? null,
        status: 'signed-out',
        nextAttemptAt: null,
        error: null,
      });
      return;
    }
    const settings = this.settings.get();
    const list = new WatchList(join(this.#dataDir, `watch-${profile.id}.json`));
    await list.load();
    // Not the session's client: the session replaces and closes that one on its reloads,
    // and a reload can replace it without changing the key above (at the first start the
    // session builds a client before the token is written, and this reads the token just
    // after it). The router then read through a closed client, and nothing restarted it.
    const client = await this.#session.clientFor(profile.id);
    const routerOptions: CompletionRouterOptions = {
      client,
      watchList: list,
      notifier: this.gate.forSource(profile.id),
      filter: settings,
      readsByIds: async () => (await client.serverRevision()).features.workRequestFilters,
      commandHook: () => this.commands.current(),
    };
    if (this.#explainer) {
      const explain = this.#explainer(profile.apiUrl, client);
      routerOptions.explain = explain;
      routerOptions.explainById = (id) => explainWorkRequest(client, explain, id);
    }
    const users = this.#users;
    if (users) {
      let me: Promise<string | null> | undefined;
      const serverId = profile.id;
      routerOptions.isMine = async (workRequest) => {
        me ??= client.whoami().then(
          (answer) => (answer.auth ? answer.user : null),
          () => {
            me = undefined;
            return null;
          },
        );
        const username = await me;
        if (username === null) return false;
        return users.isMine(serverId, client, username, workRequest.created_by);
      };
    }
    const router = new CompletionRouter(routerOptions);
    const profileId = profile.id;
    const watcher = new CompletionWatcher({
      apiUrl: profile.apiUrl,
      // Read on each attempt, so a token stored later is picked up; it comes with the
      // origin it was stored for, and the watcher sends it nowhere else.
      getToken: () => this.#session.tokens.get(profileId),
      resume: new ResumeFile(join(this.#dataDir, `resume-${profile.id}.json`)),
      onCompletion: (event) => this.#completed(router, list, event, profile),
    });
    router.attach(watcher);
    // Problems that answer no request (a completion that could not be read, a resume point
    // that could not be saved) go to the log; the watcher carries on with the next one.
    const logProblem = (error: DebusineError): void => {
      console.warn(`Notifications from ${profile.apiUrl}: ${error.message}`);
    };
    router.on('error', logProblem);
    watcher.on('error', logProblem);
    router.on('changed', (c) => {
      this.#emit('workRequests.changed', { ids: [...new Set([c.workRequestId, c.rootId])] });
    });
    // A flood of completions was dropped unread: the lists on screen may be stale, whatever
    // work requests they changed. Once per catch-up, however many the flood held.
    router.on('overflow', () => {
      this.#emit('workRequests.changed', { ids: [] });
    });
    // Ends found by reading (an aborted workflow sends no completion): told as completions.
    router.on('ended', (e) => {
      this.#emit('workRequest.completed', {
        workRequestId: e.workRequestId,
        completedAt: e.completedAt,
        status: e.status,
        result: e.result,
        workspace: e.workspace,
        workflowRoot: e.rootId,
      });
    });
    // A notification stays on the desktop after the app moves to another server: what it
    // opens or retries is on the server that showed it.
    const server = { profileId };
    router.on('open', (id) => {
      this.#navigate({ target: { kind: 'work-request', id }, server });
    });
    router.on('openLog', ({ workRequestId, artifactId, path, line }) => {
      this.#navigate({ target: { kind: 'log', workRequestId, artifactId, path, line }, server });
    });
    router.on('retry', (id) => {
      void this.#retryFromNotification(id, profileId);
    });
    router.on('sign', (id) => {
      void this.#signFromNotification(id, profileId);
    });
    router.on('openInBrowser', (id) => {
      void this.#openInBrowserFromNotification(id, profileId);
    });
    list.on('changed', (data) => {
      this.#emit('watch.changed', { workRequestIds: data.items.map((i) => i.id) });
    });
    watcher.on('state', (state) => {
      const { next, since } = connectionStateOf(profileId, state);
      this.#setState(next, since);
    });
    const early = this.#live
      ? new EarlyWarnings({
          apiUrl: profile.apiUrl,
          client,
          watchList: list,
          live: this.#live,
          notifier: this.gate.forSource(profileId),
          listFilters: async () => (await client.serverRevision()).features.workRequestFilters,
          handlersFor: (id, line) => {
            const openLive = (): void => {
              this.#navigate({ target: { kind: 'live-log', workRequestId: id, line }, server });
            };
            return {
              onClick: openLive,
              onAction: (action) => {
                if (action === 'abort') void this.#abortFromNotification(id, profileId);
                else openLive();
              },
            };
          },
          onError: (error) => {
            console.warn(
              `Early warnings from ${profile.apiUrl}: ${error instanceof Error ? error.message : String(error)}`,
            );
          },
        })
      : undefined;
    // A step that completes may let the next build start; a new watch may name a running one.
    router.on('changed', () => void early?.check());
    list.on('changed', () => void early?.check());
    this.#stack = { key, profileId, watcher, router, list, early, client };
    watcher.setNetworkAvailable(this.#online);
    await watcher.start();
    early?.start();
  }

  async #completed(
    router: CompletionRouter,
    list: WatchList,
    event: CompletionEvent,
    profile: { id: string; apiUrl: string; scope: string | null },
  ): Promise<void> {
    const workRequest = await router.handleCompletion(event);
    if (workRequest && this.#publications) {
      const published = await this.#publications
        .completed(serverKey(profile.apiUrl, profile.scope), workRequest, event.result)
        .catch((error: unknown) => {
          console.warn(`Publications on ${profile.apiUrl}: ${String(error)}`);
          return undefined;
        });
      if (published) this.#tellPublished(published, profile.id);
    }
    const item = list.get(event.workRequestId);
    const root = workRequest ? (workRequest.workflow_root ?? null) : (item?.rootId ?? null);
    this.#emit('workRequest.completed', {
      workRequestId: event.workRequestId,
      completedAt: event.completedAt,
      status: 'completed',
      result: event.result,
      workspace: item?.workspace ?? null,
      workflowRoot: root === event.workRequestId ? null : root,
    });
  }

  /**
   * "hello 2.10-3 published to sid": the suite's indexes are updated and signed, so apt
   * finds it from now on. A click opens the workflow that published it, on its server.
   */
  #tellPublished(p: Publication, profileId: string): void {
    const notification: CompletionNotification = {
      key: `published-${String(p.rootId)}`,
      title: `${p.source} ${p.version} published to ${p.suite}`,
      body: `In ${p.workspace}: apt finds it after its next update.`,
      workRequestId: p.rootId,
      actions: [],
      urgency: 'normal',
      kind: 'completion',
      result: 'success',
      rootId: null,
      reason: null,
    };
    this.gate.forSource(profileId).show(notification, {
      onClick: () => {
        this.#navigate({ target: { kind: 'work-request', id: p.rootId }, server: { profileId } });
      },
      onAction: () => undefined,
    });
  }

  /**
   * The Retry button of a notification: the same retry as the app's request, so the new
   * work request is watched and notifies in every mode. Nobody waits for an answer here,
   * so a refusal is told the way the button was reached: by a desktop notification. A
   * retry goes to the active server, so a notification of another server retries nothing
   * there (the same number is another work request, or none): its click opens the work
   * request on its own server, where the page's Retry does it.
   */
  async #retryFromNotification(id: number, profileId: string): Promise<void> {
    const active = this.#session.activeProfile();
    try {
      if (active?.id !== profileId) {
        const name = this.#profileName(profileId);
        throw new DebusineError(
          'conflict',
          `It is on ${name}, and the app now works with ${active?.name ?? 'no server'}. ` +
            'Click to open it there, then retry from its page.',
        );
      }
      await this.#retry(id);
    } catch (error) {
      this.#tellActionFailed('retry', id, profileId, error);
    }
  }

  /**
   * "Abort" on a failing build's early warning: on the server that showed it, which must
   * be the active one (as for Retry); a refusal is told by a notification of its own.
   */
  async #abortFromNotification(id: number, profileId: string): Promise<void> {
    try {
      const stack = this.#stack;
      if (stack?.profileId !== profileId) {
        throw new DebusineError(
          'conflict',
          `It is on ${this.#profileName(profileId)}, and the app now works with another server.`,
        );
      }
      await stack.client.workRequestAbort(id);
      this.#emit('workRequests.changed', { ids: [id] });
    } catch (error) {
      this.#tellActionFailed('abort', id, profileId, error);
    }
  }

  /** "Sign and upload" on a notification: on the server that showed it (sign-from-notification.ts). */
  async #signFromNotification(id: number, profileId: string): Promise<void> {
    await signFromNotification(id, profileId, {
      sign: this.#sign,
      show: (notification, onClick) => {
        this.#notifier.show(visibleNotification(notification), {
          onClick,
          onAction: () => undefined,
        });
      },
      navigate: this.#navigate,
      failed: (error) => {
        this.#tellActionFailed('sign', id, profileId, error);
      },
    });
  }

  /**
   * "Open in browser" on a notification: the page of the server that showed it, read with
   * a client of its own. The router's client is closed once the app moves to another
   * server, and the active server's would name another work request by the same number.
   */
  async #openInBrowserFromNotification(id: number, profileId: string): Promise<void> {
    try {
      const client = await this.#session.clientFor(profileId).catch((error: unknown) => {
        if (!(error instanceof DebusineError && error.code === 'not-found')) throw error;
        throw new DebusineError('not-found', `It is on ${this.#profileName(profileId)}.`);
      });
      try {
        await this.#openExternal(await workRequestWebPage(client, id));
      } finally {
        await client.close();
      }
    } catch (error) {
      this.#tellActionFailed('open-in-browser', id, profileId, error);
    }
  }

  /** A notification button that could not do its work says so, as the button was reached. */
  #tellActionFailed(
    action: Exclude<NotificationActionId, 'open-log'>,
    id: number,
    profileId: string,
    error: unknown,
  ): void {
    const reason = error instanceof Error ? error.message : String(error);
    this.#notifier.show(visibleNotification(actionFailedNotification(action, id, reason)), {
      onClick: () => {
        this.#navigate({ target: { kind: 'work-request', id }, server: { profileId } });
      },
      onAction: () => undefined,
    });
  }

  /** A profile's name as the user gave it, or a plain word once it has been removed. */
  #profileName(profileId: string): string {
    try {
      return this.#session.profile(profileId).name;
    } catch {
      return 'a server removed from the app';
    }
  }

  #setState(next: Omit<ConnectionState, 'since'>, since?: string): void {
    const same =
      next.status === this.#state.status &&
      next.serverId === this.#state.serverId &&
      next.nextAttemptAt === this.#state.nextAttemptAt;
    if (same) return;
    this.#state = { ...next, since: since ?? new Date().toISOString() };
    this.#emit('connection.state', this.connection);
  }

  async #stopStack(): Promise<void> {
    const stack = this.#stack;
    if (!stack) return;
    this.#stack = undefined;
    await stack.early?.close();
    await stack.router.close();
    // Notifications it showed stay on the desktop after watching moves to another server;
    // their clicks and buttons still answer, on the server that showed them.
    for (const event of stack.router.eventNames()) {
      if (!NOTIFICATION_ANSWERS.has(event)) stack.router.removeAllListeners(event);
    }
    stack.list.removeAllListeners();
    await stack.watcher.stop();
    stack.watcher.removeAllListeners();
    // Last: the router's watch() and started() calls under way (close() waited for them)
    // and the completion at hand (until the watcher stopped) read with it.
    await stack.client.close();
  }

  setNetworkAvailable(online: boolean): void {
    this.#online = online;
    this.#stack?.watcher.setNetworkAvailable(online);
  }

  /** Connects the watcher again now (after a sleep), and catches up once connected. */
  reconnect(): void {
    this.#stack?.watcher.reconnect();
  }

  /** Watches what the app just started (never fails the request that started it). */
  async started(workRequest: WorkRequestResponse): Promise<void> {
    try {
      await this.#stack?.router.started(workRequest);
    } catch {
      // The work request exists; a watch-list write failure must not turn that into an error.
    }
  }

  async close(): Promise<void> {
    await this.#switching;
    await this.#stopStack();
  }

  /** Saves what notifies, and applies it to the active server's router at once. */
  async updatePreferences(
    changes: Partial<NotificationPreferences>,
  ): Promise<NotificationPreferences> {
    const next = await this.settings.update(changes);
    this.#stack?.router.setFilter(next);
    return next;
  }

  handlers(): Handlers {
    const needList = (): WatchList => {
      const list = this.#stack?.list;
      if (!list) throw new DebusineError('auth', 'Sign in to a server to watch work requests.');
      return list;
    };
    return {
      'connection.get': () => Promise.resolve(this.connection),
      'watch.list': () => Promise.resolve(this.#stack?.list.data.items.map(entryOf) ?? []),
      'watch.add': async ({ workRequestId, label }) => {
        const list = needList();
        const router = this.#stack?.router;
        if (router) await router.watch(workRequestId);
        if (label !== null) {
          const item = list.get(workRequestId);
          if (item) {
            await list.describe(workRequestId, {
              label,
              taskType: item.taskType ?? '',
              workspace: item.workspace ?? '',
              rootId: item.rootId,
            });
          }
        }
        const item = list.get(workRequestId);
        if (!item) throw new DebusineError('internal', 'The watch list lost the entry');
        return entryOf(item);
      },
      'watch.remove': async ({ workRequestId }) => {
        await needList().remove(workRequestId);
        return undefined;
      },
    };
  }
}
