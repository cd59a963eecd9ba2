import { openConnection } from '../../src/main/bridge/connection';
import { createDispatcher, type ServiceHandlers } from '../../src/main/bridge/dispatch';
import { EventHub } from '../../src/main/bridge/event-outbox';
import type { ClientMessage, DebusineApi, ServerMessage } from '../../src/shared/contract';
import type { SerializedError } from '../../src/shared/errors';
import { createMessageApi } from '../../src/shared/bridge-message-api';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordingNotifier } from '../../src/main/notify/notifier';
import {
  createService,
  type AppService,
  type HostCapabilities,
  type ServiceDeps,
} from '../../src/main/composition-root';
import type { PresetSources } from '../../src/main/service/presets';
import { StagedFiles } from '../../src/main/service/staged-files';
import { FileTokenStore } from '../../src/main/settings/token-store';

/**
 * The bridge over an in-memory pair: the renderer's message API on one side, main's
 * connection and dispatcher on the other. Messages go through JSON, as on the socket, and
 * are delivered asynchronously, as on any real transport.
 */
export function memoryBridge(service: ServiceHandlers): {
  api: DebusineApi;
  hub: EventHub;
  /** The page goes: main releases what it held (awaited by those who need it done). */
  close(): Promise<void>;
} {
  const hub = new EventHub();
  let toRenderer: (message: ServerMessage) => void = () => undefined;
  let onClose: (error: SerializedError) => void = () => undefined;
  const connection = openConnection(createDispatcher(service), hub, (message) => {
    const copy = JSON.parse(JSON.stringify(message)) as ServerMessage;
    setTimeout(() => {
      toRenderer(copy);
    }, 0);
  });
  const api = createMessageApi(
    {
      send(message: ClientMessage) {
        const copy: unknown = JSON.parse(JSON.stringify(message));
        setTimeout(() => {
          connection.receive(copy);
        }, 0);
      },
      onMessage(receiver) {
        toRenderer = receiver;
      },
      onClose(callback) {
        onClose = callback;
      },
    },
    {
      stageDropped: () => Promise.resolve({ ok: true, result: [] }),
    },
  );
  return {
    api,
    hub,
    close() {
      const released = connection.close();
      onClose({ code: 'network', message: 'closed' });
      return released;
    },
  };
}

/**
 * A real service on a fresh data directory (file token store, recording notifier), its
 * events collected, for unit and integration tests. Call `start()` before use.
 */
export async function testService(
  options: {
    host?: HostCapabilities;
    env?: NodeJS.ProcessEnv;
    presetSources?: PresetSources;
    signing?: ServiceDeps['signing'];
  } = {},
) {
  const dataDir = await mkdtemp(join(tmpdir(), 'debusine-desktop-service-'));
  const hub = new EventHub();
  const events: { event: string; payload: unknown }[] = [];
  hub.listen((m) => {
    events.push({ event: m.event, payload: m.payload });
  });
  const files = new StagedFiles();
  const notifier = new RecordingNotifier(false);
  const tokens = new FileTokenStore(dataDir);
  const service = createService({
    dataDir,
    tokens,
    notifier,
    files,
    host: options.host ?? { transport: 'web', platform: 'linux' },
    emit: hub.emit.bind(hub),
    // Nothing from the real environment (CLI config, sandbox file) unless a test says so.
    env: options.env ?? {
      DEBUSINE_DESKTOP_CLI_CONFIG: join(dataDir, 'none.ini'),
      DEBUSINE_SANDBOX_HOME: join(dataDir, 'none'),
    },
    ...(options.presetSources ? { presetSources: options.presetSources } : {}),
    ...(options.signing ? { signing: options.signing } : {}),
  });
  return {
    service,
    handlers: service.handlers,
    hub,
    events,
    files,
    notifier,
    tokens,
    dataDir,
    async close() {
      await service.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A real service on `dataDir`, signed in by its environment to the server at `apiUrl` with
 * a token, its events sent to `hub`, and nothing from the real environment (CLI config,
 * sandbox file). `deps` gives the rest (notifier, host, client…) and may replace any of
 * these. Call `start()` before use.
 */
export function signedInService(
  dataDir: string,
  apiUrl: string,
  hub: EventHub,
  deps: Pick<ServiceDeps, 'notifier' | 'host'> & Partial<ServiceDeps>,
): AppService {
  return createService({
    dataDir,
    tokens: new FileTokenStore(dataDir),
    files: new StagedFiles(),
    emit: hub.emit.bind(hub),
    env: {
      DEBUSINE_DESKTOP_API_URL: apiUrl,
      DEBUSINE_DESKTOP_TOKEN: 'a-token-of-some-length',
      DEBUSINE_DESKTOP_CLI_CONFIG: join(dataDir, 'none.ini'),
      DEBUSINE_SANDBOX_HOME: join(dataDir, 'none'),
    },
    ...deps,
  });
}
