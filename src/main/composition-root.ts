/**
 * The composition root: implements every request of the contract on top of main's modules.
 * Each area lives in src/main/service/*; this file wires them to one profile session, one
 * data directory and the host's capabilities. An entry a host cannot offer (a dialog in
 * the browser) answers `unsupported` with a message saying so.
 */
import { Publications } from './archives/publications';
import { RepositoriesStore } from './archives/repositories-store';
import { publishTargets, repositoryHandlers } from './service/repositories';
import { join } from 'node:path';
import type { ServiceHandlers } from './bridge/dispatch';
import type { EmitEvent } from './bridge/event-outbox';
import type { Notifier } from './notify/notifier';
import { ProfileStore } from './settings/profiles';
import type { TokenStore } from './settings/token-store';
import { signingService, type SigningDeps } from './service/signing';
import { serverKey, UploadsMade } from './signing/uploads-made';
import { CallerScope, type Caller } from './bridge/caller';
import { appHandlers } from './service/app';
import { fileHandlers } from './service/files';
import type { HostCapabilities } from './service/host';
import { resultHandlers } from './service/results';
import { DraftStore } from './service/drafts';
import { DputPlanner } from './dput/plan';
import { defaultDputDirs } from './dput/profiles';
import { notificationHandlers } from './service/notification-handlers';
import { Downloads } from './service/downloads';
import { seedFromEnv } from './service/env-seed';
import type { PresetSources } from './service/presets';
import { ProfileSession, type ClientFactory } from './service/profile-session';
import { resourceHandlers } from './service/resources';
import { queueHandlers } from './service/queue';
import { serverHandlers } from './service/servers';
import type { StagedFiles } from './service/staged-files';
import { UploadManager } from './service/uploads';
import { UploadedFiles } from './artifacts';
import { WatchService } from './service/watching';
import { createNavigation, type Destination, type NavigationOutcome } from './service/navigation';
import { UserDirectory } from './identity/user-directory';
import { logHandlers } from './service/logs';
import { LiveLogStore } from './logs/live-log-store';
import { LogCache } from './logs/log-cache';
import { LogStore } from './logs/log-store';
import { failureExplainer } from './results/explainer';
import { workRequestStarts } from './service/work-request-starts';
import { workRequestHandlers } from './service/work-requests';

export type { HostCapabilities };

export interface ServiceDeps {
  /** Profiles, watch lists, notification settings, upload jobs and drafts live here. */
  dataDir: string;
  /**
   * The logs the viewer downloaded (`{dataDir}/log-cache` by default: not `Cache`, which
   * is Chromium's own folder in Electron's data directory on case-insensitive disks).
   */
  cacheDir?: string;
  tokens: TokenStore;
  /**
   * The host's notifier: Electron's, the web host's PageNotifier (the page shows them), or
   * a RecordingNotifier in tests.
   */
  notifier: Notifier;
  files: StagedFiles;
  host: HostCapabilities;
  emit: EmitEvent;
  /** Read for the env seeding, the CLI config path and the sandbox preset. */
  env?: NodeJS.ProcessEnv;
  presetSources?: PresetSources;
  createClient?: ClientFactory;
  /**
   * Where dput-ng's profiles are read (its own three places by default; the variable
   * DEBUSINE_DESKTOP_DPUT_DIRS, colon-separated, points a test at the sandbox's).
   */
  dputDirs?: readonly string[];
  /** Tests replace debsign, gpg's key list, or the PATH they are looked for on. */
  signing?: SigningDeps;
}

export interface AppService {
  handlers: ServiceHandlers;
  /**
   * Main itself as the caller of its own requests (the tray, navigation): what it opens
   * lives until the service closes, and its events go to every renderer.
   */
  own: Caller;
  /** The logs open, each behind a handle its renderer holds. */
  logs: LogStore;
  session: ProfileSession;
  watch: WatchService;
  downloads: Downloads;
  uploads: UploadManager;
  /**
   * Shows a place (a deep link, a notification's click, the tray) on the server it names,
   * making that server active first; a refusal has been told to the user already.
   */
  navigate(destination: Destination): Promise<NavigationOutcome>;
  /** Seeds from the environment, loads settings, starts watching, resumes uploads. */
  start(): Promise<void>;
  setNetworkAvailable(online: boolean): void;
  /**
   * The computer woke from sleep: what is connected may be dead without knowing it, so it
   * connects again and reads what it missed.
   */
  reconnect(): void;
  close(): Promise<void>;
}

function dputDirsFromEnv(env: NodeJS.ProcessEnv): readonly string[] {
  const value = env.DEBUSINE_DESKTOP_DPUT_DIRS;
  return value ? value.split(':').filter(Boolean) : defaultDputDirs();
}

export function createService(deps: ServiceDeps): AppService {
  const { files, host, emit } = deps;
  const env = deps.env ?? process.env;
  const profiles = new ProfileStore(deps.dataDir);
  const session = new ProfileSession(profiles, deps.tokens, deps.createClient);
  const users = new UserDirectory(join(deps.dataDir, 'identities.json'));
  const own = new CallerScope((event, payload) => {
    emit(event, payload);
  });
  // Each handle's progress goes to the renderer that opened it (service/logs.ts); main's
  // own handles (the failure explainer's) tell no renderer.
  const logs = new LogStore({
    cache: new LogCache(deps.cacheDir ?? join(deps.dataDir, 'log-cache')),
  });
  // As the stored logs: each handle's progress goes to the page that opened it, and the
  // early warnings' own handles tell no page.
  const liveLogs = new LiveLogStore({
    // A folder of its own, emptied at the first live log: only copies of live logs are in it.
    dir: join(deps.dataDir, 'live-logs'),
  });
  const navigation = createNavigation({
    session,
    activate: (id) => handlers['servers.setActive']({ id }, own),
    emit,
  });
  const navigate = async (destination: Destination): Promise<NavigationOutcome> => {
    const outcome = await navigation.go(destination);
    if ('refused' in outcome) {
      if (host.tell) host.tell('Nothing to open', outcome.refused);
      else console.warn(outcome.refused);
    }
    return outcome;
  };
  const uploadsMade = new UploadsMade(deps.dataDir);
  const publications = new Publications(deps.dataDir);
  const repositories = new RepositoriesStore(deps.dataDir);
  // Moves when the suites an upload can be published to may have changed.
  let targetsVersion = 0;
  const signing = signingService({ session, emit, deps: deps.signing ?? {}, uploadsMade });
  const watch = new WatchService({
    session,
    dataDir: deps.dataDir,
    users,
    notifier: deps.notifier,
    emit,
    navigate: (destination) => {
      navigate(destination).catch((error: unknown) => {
        console.warn(`Could not open what a notification names: ${String(error)}`);
      });
    },
    retry: (id) => starts.retry(id),
    sign: (profileId, id) => signing.sign(profileId, id),
    openExternal: host.openExternal,
    explainer: (apiUrl, client) => failureExplainer(logs, apiUrl, client),
    live: liveLogs,
    publications,
  });
  // One path for what the app starts or retries, from a request or from a notification.
  const starts = workRequestStarts({ session, emit, users, watch: (wr) => watch.started(wr) });
  session.on('changed', () => {
    void watch.sync();
  });
  const planner = new DputPlanner({
    session,
    dataDir: deps.dataDir,
    dirs: deps.dputDirs ?? dputDirsFromEnv(env),
    targets: {
      list: () => publishTargets({ session, store: repositories }),
      version: () => targetsVersion,
    },
  });
  const drafts = new DraftStore(deps.dataDir, files, planner);
  const uploads = new UploadManager({
    dir: join(deps.dataDir, 'uploads'),
    session,
    drafts,
    emit,
    planner,
    started: (workflow) => starts.started(workflow),
    uploadedFiles: new UploadedFiles(deps.dataDir),
    uploadsMade,
    publications,
  });
  const downloads = new Downloads({
    session,
    chooseDestination: host.chooseDestination,
    transport: host.transport,
    dataDir: deps.dataDir,
  });

  // One module per namespace (service/*): each says which entries of the contract it takes.
  const handlers: ServiceHandlers = {
    ...appHandlers(host, navigation),
    ...serverHandlers({
      session,
      users,
      emit,
      env,
      presetSources: deps.presetSources,
      openExternal: host.openExternal,
    }),
    ...watch.handlers(),
    ...notificationHandlers(watch, host.chooseProgram, host.activateNotification),
    ...workRequestHandlers({ session, emit, users, starts }),
    ...resourceHandlers(session),
    ...queueHandlers({
      session,
      watched: () =>
        watch.watchList?.data.items.map((i) => ({ workRequestId: i.id, lastStatus: i.status })) ??
        [],
    }),
    ...fileHandlers(files, host),
    ...drafts.handlers(),
    ...uploads.handlers(),
    ...downloads.handlers(),
    ...logHandlers(logs, session, liveLogs),
    ...resultHandlers(session, logs),
    ...signing.handlers(),
    ...repositoryHandlers({
      session,
      store: repositories,
      started: (workflow) => starts.started(workflow),
      dputDirs: () => planner.dirs,
      changed: () => {
        targetsVersion += 1;
      },
      published: async (p) => {
        const active = session.active();
        if (!active) return;
        await publications.record({ ...p, server: serverKey(active.apiUrl, active.scope) });
      },
    }),
  };

  return {
    handlers,
    own,
    logs,
    session,
    watch,
    downloads,
    uploads,
    navigate,
    async start() {
      const left = await downloads.sweep().catch((error: unknown) => {
        console.warn(`Could not remove what unfinished downloads left: ${String(error)}`);
        return [];
      });
      for (const folder of left) console.log(`Removed ${folder}, left by an unfinished download`);
      await seedFromEnv(profiles, deps.tokens, env);
      await session.refresh();
      await watch.start();
      await uploads.resumeAtStartup();
      const orphans = await drafts.sweep(uploads.localFiles()).catch((error: unknown) => {
        console.warn(`Could not remove the drafts a previous run left: ${String(error)}`);
        return [];
      });
      if (orphans.length > 0) {
        console.log(`Removed ${String(orphans.length)} drafts a previous run left unfinished`);
      }
    },
    setNetworkAvailable(online) {
      watch.setNetworkAvailable(online);
    },
    reconnect() {
      watch.reconnect();
    },
    async close() {
      await own.close();
      await downloads.close();
      await logs.closeAll();
      await liveLogs.closeAll();
      await uploads.close();
      await watch.close();
      await session.close();
    },
  };
}
