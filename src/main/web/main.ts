/**
 * `npm run serve` (and `npm start` without Electron): the web host process. The active
 * server comes from DEBUSINE_DESKTOP_API_URL/_TOKEN/_SCOPE until server settings exist
 * (issue 6); the token stays in this process.
 */
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createDispatcher } from '../bridge/dispatch';
import { EventHub } from '../bridge/event-outbox';
import { createService } from '../service';
import { serverFromEnv, StaticSessionProvider } from '../service/session';
import { StagedFiles } from '../service/staged-files';
import { startWebHost } from './host';

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return 0;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`DEBUSINE_DESKTOP_PORT must be a port number, not ${JSON.stringify(value)}`);
  }
  return port;
}

async function main(): Promise<void> {
  const hub = new EventHub();
  const session = new StaticSessionProvider(serverFromEnv());
  const files = new StagedFiles((path) => rm(path, { force: true }));
  const service = createService({
    session,
    files,
    host: { transport: 'web', platform: process.platform },
    emit: hub.emit.bind(hub),
  });
  const dispatch = createDispatcher(service, {
    onInternalError: (channel, error) => {
      console.error(`Request ${channel} failed unexpectedly:`, error);
    },
  });
  const host = await startWebHost({
    root: resolve(import.meta.dirname, '../renderer'),
    dispatch,
    hub,
    files,
    host: process.env.DEBUSINE_DESKTOP_HOST ?? '127.0.0.1',
    port: parsePort(process.env.DEBUSINE_DESKTOP_PORT),
  });
  console.log(`Debusine Desktop is serving on ${host.url}`);
  const stop = (): void => {
    void Promise.all([host.close(), session.close()]).finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
