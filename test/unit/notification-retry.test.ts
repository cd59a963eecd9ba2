/**
 * The Retry button of a desktop notification goes through the same retry as the app's
 * request: the new work request is watched, so that it notifies when it completes (in the
 * default mode, "watched", nothing else would), and a refused retry is told on the
 * desktop, naming the work request and the server's reason.
 *
 * The whole service runs, with a local WebSocket server in place of Debusine's completion
 * websocket (its messages as the real one sends them) and a client that answers from a
 * table, because the refusal and the timing are the point here.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DebusineClient } from '../../src/main/api/client';

import { parseDeepLink } from '../../src/main/service/deep-links';
import { EventHub, type EventMessage } from '../../src/main/bridge/event-outbox';
import { logLink } from '../../src/shared/log-link';
import { RecordingNotifier } from '../../src/main/notify/notifier';
import type { AppService } from '../../src/main/composition-root';
import { DebusineError } from '../../src/shared/errors';
import type { WorkRequestResponse } from '../../src/shared/models';
import { completionSocket, tableClient, type CompletionSocket } from '../support/table-debusine';
import { workRequestFixture } from '../support/work-requests';
import { testCaller } from '../support/caller';
import { signedInService } from '../support/memory-bridge';
import { navigationsOf as navigations } from '../support/navigations';

/** The renderer these tests stand for: it holds what they open. */
const caller = testCaller();

/** A work request still running, until the test completes it. */
function workRequest(id: number, extra: Partial<WorkRequestResponse> = {}): WorkRequestResponse {
  return workRequestFixture(id, { completed_at: null, status: 'running', result: '', ...extra });
}

/** Every retry asked of any server, as `<api url> #<id>`. */
const retriesAsked: string[] = [];

/** A client answering from `table`; a retry makes work request id + 100, or fails. */
function retryingClient(
  apiUrl: string,
  table: Map<number, WorkRequestResponse>,
  retryFails: DebusineError | undefined,
): DebusineClient {
  return tableClient(apiUrl, table, {
    workRequestRetry: (id: number) => {
      retriesAsked.push(`${apiUrl} #${String(id)}`);
      if (retryFails) return Promise.reject(retryFails);
      const retried = workRequest(id + 100, { status: 'pending' });
      table.set(retried.id, retried);
      return Promise.resolve(retried);
    },
  }).client;
}

interface Running {
  service: AppService;
  events: EventMessage[];
  told: string[];
  /** The addresses handed to the system browser, in order. */
  browsed: string[];
  notifier: RecordingNotifier;
  server: CompletionSocket;
  table: Map<number, WorkRequestResponse>;
  close(): Promise<void>;
}

const running: Running[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.close();
});

/** The service signed in to the fake server, connected, watching work request 10. */
async function start(retryFails?: DebusineError): Promise<Running> {
  const dataDir = await mkdtemp(join(tmpdir(), 'notification-retry-'));
  const server = await completionSocket();
  const table = new Map([[10, workRequest(10)]]);
  // Buttons only where the platform has them (Electron on macOS and Windows).
  const notifier = new RecordingNotifier(true);
  const hub = new EventHub();
  const events: EventMessage[] = [];
  hub.listen((m) => events.push(m));
  const told: string[] = [];
  const browsed: string[] = [];
  const service = signedInService(dataDir, server.apiUrl, hub, {
    notifier,
    host: {
      transport: 'electron',
      platform: 'darwin',
      tell: (title, detail) => told.push(`${title}: ${detail}`),
      openExternal: (url) => {
        browsed.push(url);
        return Promise.resolve();
      },
    },
    createClient: (options) => retryingClient(options.apiUrl, table, retryFails),
  });
  const r: Running = {
    service,
    events,
    told,
    browsed,
    notifier,
    server,
    table,
    async close() {
      await service.close();
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  running.push(r);
  await service.start();
  await expect.poll(() => service.watch.connection.status, { timeout: 10_000 }).toBe('connected');
  await service.handlers['watch.add']({ workRequestId: 10, label: null }, caller);
  return r;
}

/** Work request 10 fails; its notification comes with a Retry button. */
async function failTen(r: Running) {
  r.table.set(10, workRequest(10, { status: 'completed', result: 'failure' }));
  r.server.complete(10, '2026-01-01T00:00:10Z', 'failure');
  const failed = await r.notifier.waitFor((n) => n.workRequestId === 10, 10_000);
  expect(failed.notification.actions.map((a) => a.id)).toContain('retry');
  return failed;
}

// Each wait below gives up after 10 s, so that a failure names what did not happen.
describe('Retry on a desktop notification', { timeout: 60_000 }, () => {
  it('watches the new work request, which notifies when it completes', async () => {
    const r = await start();
    expect(r.service.watch.settings.get().mode).toBe('watched');
    const failed = await failTen(r);

    failed.handlers.onAction('retry');
    // The server made work request 110 in its place; it completes soon after.
    await expect.poll(() => r.table.has(110), { timeout: 10_000 }).toBe(true);
    r.table.set(110, workRequest(110, { status: 'completed', result: 'success' }));
    r.server.complete(110, '2026-01-01T00:01:10Z', 'success');
    const retried = await r.notifier.waitFor((n) => n.workRequestId === 110, 10_000);
    expect(retried.notification.title).toBe('Succeeded: noop #110');
    // It is on the watch list, as a work request the app started.
    const watched = await r.service.handlers['watch.list'](undefined, caller);
    expect(watched.find((e) => e.workRequestId === 110)?.source).toBe('started');
  });

  it('says on the desktop which work request could not be retried, and why', async () => {
    const refusal = new DebusineError(
      'validation',
      'Cannot retry: only aborted or failed work requests can be retried',
    );
    const r = await start(refusal);
    const failed = await failTen(r);

    failed.handlers.onAction('retry');
    const told = await r.notifier.waitFor((n) => n.title.includes('retry'), 10_000);
    expect(told.notification).toMatchObject({
      title: 'Could not retry work request #10',
      body: refusal.message,
      workRequestId: 10,
      urgency: 'critical',
    });
    // Nothing new was watched.
    const watched = await r.service.handlers['watch.list'](undefined, caller);
    expect(watched.map((e) => e.workRequestId)).toEqual([10]);
  });
});

/** A second server, made active as the app's own switch does; its id. */
async function switchToAnother(r: Running): Promise<{ id: string; apiUrl: string }> {
  const other = await completionSocket();
  running.push({ ...r, close: () => other.close() });
  const added = await r.service.handlers['servers.add'](
    {
      name: 'elsewhere',
      apiUrl: other.apiUrl,
      scope: null,
      defaultWorkspace: null,
    },
    caller,
  );
  await r.service.handlers['servers.setActive']({ id: added.id }, caller);
  expect(r.service.session.active()?.id).toBe(added.id);
  return { id: added.id, apiUrl: other.apiUrl };
}

/**
 * Ids are per server: #10 on one server is another work request, or none, on the next.
 * A notification stays on the desktop after the app moves to another server, and a link
 * names its own server; what they open or retry must be on that server.
 */
describe('Notifications and links of another server', { timeout: 60_000 }, () => {
  it("a notification's click first makes its own server active again", async () => {
    const r = await start();
    const first = r.service.session.active()?.id;
    const failed = await failTen(r);
    await switchToAnother(r);
    r.events.length = 0;

    failed.handlers.onClick();
    await expect.poll(() => navigations(r)).toEqual([{ kind: 'work-request', id: 10 }]);
    expect(r.service.session.active()?.id).toBe(first);
    // The renderer learns of the server before it is asked to show the page.
    const order = r.events.map((m) => m.event);
    expect(order.indexOf('session.changed')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('session.changed')).toBeLessThan(order.indexOf('app.navigate'));
  });

  it("retries nothing on the active server for another server's notification", async () => {
    const r = await start();
    const failed = await failTen(r);
    const other = await switchToAnother(r);
    retriesAsked.length = 0;

    failed.handlers.onAction('retry');
    const told = await r.notifier.waitFor((n) => n.title.includes('retry'), 10_000);
    expect(told.notification.title).toBe('Could not retry work request #10');
    expect(told.notification.body).toContain('elsewhere');
    // The property: no server was asked to retry anything, least of all the active one.
    expect(retriesAsked).toEqual([]);
    expect(r.service.session.active()?.id).toBe(other.id);
    // Its click opens the work request on the server it belongs to.
    told.handlers.onClick();
    await expect.poll(() => navigations(r)).toEqual([{ kind: 'work-request', id: 10 }]);
    expect(r.service.session.active()?.id).not.toBe(other.id);
  });

  it('"Open in browser" opens the page of the server that showed the notification', async () => {
    const r = await start();
    const first = r.service.session.active();
    if (!first) throw new Error('no server');
    const failed = await failTen(r);
    const other = await switchToAnother(r);

    failed.handlers.onAction('open-in-browser');
    await expect
      .poll(() => r.browsed, { timeout: 10_000 })
      .toEqual([`${new URL(first.apiUrl).origin}/debusine/System/work-request/10/`]);
    // The browser shows it; the app stays where the user put it.
    expect(r.service.session.active()?.id).toBe(other.id);
  });

  it('"Open in browser" that cannot be done says why on the desktop', async () => {
    const r = await start();
    const failed = await failTen(r);
    // The server no longer has it (deleted by its expiry, say).
    r.table.delete(10);

    failed.handlers.onAction('open-in-browser');
    const told = await r.notifier.waitFor((n) => n.title.includes('browser'), 10_000);
    expect(told.notification).toMatchObject({
      title: 'Could not open work request #10 in the browser',
      body: 'No work request 10',
    });
    expect(r.browsed).toEqual([]);
  });

  it("the app's list shows the active server's notifications; a burst's summary opens its own list", async () => {
    const r = await start();
    const first = r.service.session.active();
    if (!first) throw new Error('no server');
    const ids = [10, 11, 12, 13, 14, 15];
    for (const id of ids.slice(1)) {
      r.table.set(id, workRequest(id));
      await r.service.handlers['watch.add']({ workRequestId: id, label: null }, caller);
    }
    // All six fail at once: past the burst limit, the rest are summed up in one notification.
    for (const id of ids) {
      r.table.set(id, workRequest(id, { status: 'completed', result: 'failure' }));
      r.server.complete(id, `2026-01-01T00:00:${String(id)}Z`, 'failure');
    }
    const summary = await r.notifier.waitFor((n) => n.title.includes('more work requests'), 10_000);
    const recent = async () =>
      (await r.service.handlers['notifications.recent'](undefined, caller)).map(
        (n) => n.workRequestId,
      );
    expect((await recent()).sort()).toEqual(ids);

    // On another server, #10 is another work request, or none: its list starts empty.
    await switchToAnother(r);
    expect(await recent()).toEqual([]);
    r.events.length = 0;
    summary.handlers.onClick();
    await expect.poll(() => navigations(r)).toEqual([{ kind: 'work-requests' }]);
    expect(r.service.session.active()?.id).toBe(first.id);
    expect((await recent()).sort()).toEqual(ids);
  });

  it('opens a web link on the server it names, switching to it', async () => {
    const r = await start();
    const other = await switchToAnother(r);
    const first = r.service.session.list().find((p) => p.id !== other.id);
    if (!first) throw new Error('no first server');
    const link = `${new URL(first.apiUrl).origin}/debusine/System/work-request/10/`;
    const destination = parseDeepLink(link);
    if (!destination) throw new Error(`not a link: ${link}`);
    r.events.length = 0;

    // It says which server it switched to, with the host that tells it apart.
    const switchedTo = {
      profileId: first.id,
      name: first.name,
      host: new URL(first.apiUrl).host,
    };
    await expect(r.service.navigate(destination)).resolves.toEqual({
      shown: { kind: 'work-request', id: 10 },
      switchedTo,
    });
    expect(r.service.session.active()?.id).toBe(first.id);
    expect(navigations(r)).toEqual([{ kind: 'work-request', id: 10 }]);
    expect(r.events.find((m) => m.event === 'app.navigate')?.payload).toMatchObject({
      switchedTo,
    });
  });

  it('a link to a line names its server, and opens there', async () => {
    const r = await start();
    const first = r.service.session.active();
    if (!first) throw new Error('no server');
    const link = logLink({ server: first.apiUrl, artifactId: 42, path: 'build.log', line: 9 });
    expect(new URL(link).searchParams.get('server')).toBe(new URL(first.apiUrl).origin);
    await switchToAnother(r);
    const destination = parseDeepLink(link);
    if (!destination) throw new Error(`not a link: ${link}`);
    r.events.length = 0;

    await r.service.navigate(destination);
    expect(r.service.session.active()?.id).toBe(first.id);
    expect(navigations(r)).toEqual([
      { kind: 'log', workRequestId: null, artifactId: 42, path: 'build.log', line: 9 },
    ]);
  });

  it('opens nothing for a server the app does not know, and says so', async () => {
    const r = await start();
    const before = r.service.session.active()?.id;
    r.events.length = 0;

    for (const link of [
      'https://debusine.example.org/debian/developers/work-request/10/',
      logLink({ server: 'https://debusine.example.org', artifactId: 42, path: 'a', line: 0 }),
    ]) {
      const destination = parseDeepLink(link);
      if (!destination) throw new Error(`not a link: ${link}`);
      const outcome = await r.service.navigate(destination);
      expect('refused' in outcome && outcome.refused).toContain('debusine.example.org');
    }
    expect(navigations(r)).toEqual([]);
    expect(r.service.session.active()?.id).toBe(before);
    expect(r.told).toHaveLength(2);
    expect(r.told[0]).toContain('work request #10');
    expect(r.told[0]).toContain('https://debusine.example.org');
    expect(r.told[1]).toContain('artifact #42');
  });
});
