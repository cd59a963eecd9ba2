/**
 * The composition root: implements every request of the contract on top of main's modules.
 * Each area lives in src/main/service/*; this file wires them to one profile session, one
 * data directory and the host's capabilities. An entry a host cannot offer (a dialog in
 * the browser) answers `unsupported` with a message saying so.
 */
import { join } from 'node:path';
import type { ServiceHandlers } from './bridge/dispatch';
import type { EmitEvent } from './bridge/event-outbox';
import type { Notifier } from './notify/notifier';
import { ProfileStore } from './settings/profiles';
import type { TokenStore } from './settings/token-store';
import { signingService, type SigningDeps } from './service/signing';
import { DraftStore } from './service/drafts';
import { DputPlanner } from './dput/plan';
import { defaultDputDirs } from './dput/profiles';
import {
  notificationHandlers,
  type ActivateNotification,
  type ChooseProgram,
} from './service/notification-handlers';
import { Downloads } from './service/downloads';
import { seedFromEnv } from './service/env-seed';
import type { PresetSources } from './service/presets';
import { ProfileSession, type ClientFactory } from './service/profile-session';
import { resourceHandlers } from './service/resources';
import { serverHandlers } from './service/servers';
import type { StagedFiles } from './service/staged-files';
import { UploadManager } from './service/uploads';
import { WatchService } from './service/watching';
import { createNavigation, type Destination, type NavigationOutcome } from './service/navigation';
import { UserDirectory } from './identity/user-directory';
import { logHandlers } from './logs/handlers';
import { LiveLogStore } from './logs/live-log-store';
import { lintianTags } from './results/lintian-tags';
import { LogCache } from './logs/log-cache';
import { LogStore } from './logs/log-store';
import { explainWorkRequest, failureExplainer } from './results/explainer';
import { workRequestStarts } from './service/work-request-starts';
import { workRequestHandlers } from './service/work-requests';
import type { RequestChannel, StagedFile } from '../shared/contract';
import { DebusineError } from '../shared/errors';
import { APP_NAME, APP_VERSION } from './version';

/** What only the host process can do (Electron dialogs and shell); the web host has less. */
export interface HostCapabilities {
  transport: 'electron' | 'web';
  platform: string;
  openExternal?: (url: string) => Promise<void>;
  /** Shows an open dialog; absolute paths of the chosen files, empty when cancelled. */
  pickFiles?: (options: { multiple: boolean; title?: string | undefined }) => Promise<string[]>;
  /** Shows a save (or folder) dialog; the chosen path, or null when cancelled. */
  chooseDestination?: (options: {
    kind: 'file' | 'directory';
    suggestedName?: string | undefined;
  }) => Promise<string | null>;
  /**
   * Shows an open dialog for the program to run on completion; its path, or null when
   * cancelled. Without it, that program is only ever set by editing its file.
   */
  chooseProgram?: ChooseProgram;
  /**
   * Where the page shows the desktop notifications (the web host's PageNotifier): runs
   * what a click the page reports does.
   */
  activateNotification?: ActivateNotification;
  /**
   * Tells the user why a link or a notification opened nothing (its server is not one of
   * the app's); without it, the reason goes to the log.
   */
  tell?: (title: string, detail: string) => void;
}

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
  close(): Promise<void>;
}

function notOnThisHost(channel: RequestChannel, hint: string): DebusineError {
  return new DebusineError('unsupported', `${channel} is not available in the browser: ${hint}`, {
    operation: channel,
  });
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
  const logs = new LogStore({
    cache: new LogCache(deps.cacheDir ?? join(deps.dataDir, 'log-cache')),
    emit: (state) => {
      emit('logs.progress', state);
    },
  });
  const liveLogs = new LiveLogStore({
    // A folder of its own, emptied at the first live log: only copies of live logs are in it.
    dir: join(deps.dataDir, 'live-logs'),
    emit: (state) => {
      emit('logs.progress', state);
    },
  });
  const navigation = createNavigation({
    session,
    activate: (id) => handlers['servers.setActive']({ id }),
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
  const signing = signingService({ session, emit, deps: deps.signing ?? {} });
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
  });
  const drafts = new DraftStore(deps.dataDir, files, planner);
  const uploads = new UploadManager({
    dir: join(deps.dataDir, 'uploads'),
    session,
    drafts,
    emit,
    planner,
    started: (workflow) => starts.started(workflow),
  });
  const downloads = new Downloads({
    session,
    files,
    emit,
    transport: host.transport,
    dataDir: deps.dataDir,
  });

  const handlers: ServiceHandlers = {
    'app.info': () =>
      Promise.resolve({
        name: APP_NAME,
        version: APP_VERSION,
        transport: host.transport,
        platform: host.platform,
      }),
    'app.openExternal': async ({ url }) => {
      if (!host.openExternal) throw notOnThisHost('app.openExternal', 'open the link yourself');
      await host.openExternal(url);
      return undefined;
    },
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
    'files.pick': async ({ multiple, title }) => {
      if (!host.pickFiles) throw notOnThisHost('files.pick', 'drop the files or use a file input');
      const paths = await host.pickFiles({ multiple, title });
      const staged: StagedFile[] = [];
      for (const path of paths) staged.push(await files.add(path));
      return staged;
    },
    'files.release': async ({ ids }) => {
      await files.release(ids);
      return undefined;
    },
    ...drafts.handlers(),
    ...uploads.handlers(),
    'downloads.chooseDestination': async ({ kind, suggestedName }) => {
      if (!host.chooseDestination) {
        throw notOnThisHost('downloads.chooseDestination', 'use downloads.link instead');
      }
      const path = await host.chooseDestination({ kind, suggestedName });
      return path === null ? null : files.addDestination(path, kind);
    },
    ...downloads.handlers(),
    ...logHandlers(logs, session, liveLogs),
    'workRequests.explainFailure': async ({ id }) => {
      const server = session.active();
      if (!server) throw new DebusineError('auth', 'No Debusine server is configured yet.');
      const client = session.client();
      return explainWorkRequest(client, failureExplainer(logs, server.apiUrl, client), id);
    },
    'results.lintianTags': ({ artifactId }) => {
      if (!session.active()) {
        return Promise.reject(new DebusineError('auth', 'No Debusine server is configured yet.'));
      }
      return lintianTags(session.client(), artifactId);
    },
    ...signing.handlers(),
  };

  return {
    handlers,
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
    },
    setNetworkAvailable(online) {
      watch.setNetworkAvailable(online);
    },
    async close() {
      await downloads.close();
      await logs.closeAll();
      await liveLogs.closeAll();
      await uploads.close();
      await watch.close();
      await session.close();
    },
  };
}
