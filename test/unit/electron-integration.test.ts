import { describe, expect, it } from 'vitest';
import { deepLinkFromArgv, parseDeepLink } from '../../src/main/service/deep-links';
import {
  acknowledge,
  INITIAL_TRAY,
  trayMenuTemplate,
  trayView,
  updateTray,
  type TraySnapshot,
} from '../../src/main/app/tray-state';
import type { WatchEntry } from '../../src/shared/contract';
import { logLink } from '../../src/shared/log-link';
import { fitToDisplays, parseWindowState } from '../../src/main/app/window-state';

describe('deep links', () => {
  it.each([
    [
      'https://debusine.debian.net/debian/developers/work-request/123/',
      'work-request',
      123,
      'https://debusine.debian.net',
    ],
    ['http://127.0.0.1:18016/debusine/System/artifact/9/', 'artifact', 9, 'http://127.0.0.1:18016'],
    ['debusine-desktop://work-request/5', 'work-request', 5, null],
    ['debusine-desktop://artifact/6/', 'artifact', 6, null],
    [
      'debusine-desktop://open?url=https%3A%2F%2Fdebusine.debian.net%2Fdebian%2Fdevelopers%2Fartifact%2F7%2F',
      'artifact',
      7,
      'https://debusine.debian.net',
    ],
  ])('opens %s', (url, kind, id, origin) => {
    expect(parseDeepLink(url)).toEqual({
      target: { kind, id },
      server: origin === null ? null : { origin },
    });
  });

  it.each([
    'https://debusine.debian.net/debian/developers/work-request/',
    'https://debusine.debian.net/work-request/1/',
    'javascript:alert(1)',
    'file:///debian/x/artifact/1/',
    'debusine-desktop://work-request/0',
    'not a url',
  ])('ignores %s', (url) => {
    expect(parseDeepLink(url)).toBeNull();
  });

  it('opens a link to a line of a file, as the viewer writes it, on its server', () => {
    const server = 'https://debusine.debian.net/api';
    const link = logLink({ server, artifactId: 42, path: 'logs/build amd64.log', line: 119 });
    expect(parseDeepLink(link)).toEqual({
      target: {
        kind: 'log',
        workRequestId: null,
        artifactId: 42,
        path: 'logs/build amd64.log',
        line: 119,
      },
      server: { origin: 'https://debusine.debian.net' },
    });
    // A link written before links named their server is the active server's.
    expect(parseDeepLink('debusine-desktop://log/42?path=a&line=3')?.server).toBeNull();
  });

  it.each([
    'debusine-desktop://log/42?path=build.log',
    'debusine-desktop://log/42?line=3',
    'debusine-desktop://log/0?path=build.log&line=3',
    'debusine-desktop://log/42?path=build.log&line=0',
    'debusine-desktop://log/42?path=build.log&line=-3',
    'debusine-desktop://log/42?path=build.log&line=1e3',
    'debusine-desktop://log/42?path=&line=3',
    'debusine-desktop://log/42?path=a%00b&line=3',
    'debusine-desktop://log/42?path=a&path=b&line=3',
    'debusine-desktop://log/42?path=a&line=3&url=https://x/',
    'debusine-desktop://log/42/x?path=a&line=3',
    'debusine-desktop://log/42?path=a&line=3#frag',
    'debusine-desktop://log/42?path=a&line=3&server=javascript:alert(1)',
    'debusine-desktop://log/42?path=a&line=3&server=file:///etc',
    'debusine-desktop://log/42?path=a&line=3&server=https://h/debian/',
    'debusine-desktop://log/42?path=a&line=3&server=https://user:pw@h',
    'debusine-desktop://log/42?path=a&line=3&server=https://h&server=https://i',
    'debusine-desktop://log/42?path=a&line=3&server=',
  ])('refuses the log link %s', (url) => {
    expect(parseDeepLink(url)).toBeNull();
  });

  it('finds a link among command-line arguments', () => {
    expect(
      deepLinkFromArgv(['--no-sandbox', '.', 'debusine-desktop://work-request/3']),
    ).toMatchObject({ target: { id: 3 } });
    expect(deepLinkFromArgv(['--flag'])).toBeNull();
  });
});

describe('the tray', () => {
  const entry = (id: number, status: string, result = ''): WatchEntry => ({
    workRequestId: id,
    label: 'noop',
    addedAt: '2026-11-21T12:00:00Z',
    lastStatus: status,
    lastResult: result,
    source: 'started',
    taskType: 'Worker',
    workspace: 'System',
    rootId: null,
  });
  const snap = (watched: WatchEntry[], extra: Partial<TraySnapshot> = {}): TraySnapshot => ({
    online: true,
    signedIn: true,
    watched,
    needsInput: 0,
    ...extra,
  });

  it('says running, then all good, with counts', () => {
    let m = updateTray(INITIAL_TRAY, snap([entry(1, 'running'), entry(2, 'pending')]));
    expect(trayView(m)).toMatchObject({ state: 'running', counts: { running: 2, failed: 0 } });
    m = updateTray(m, snap([entry(1, 'completed', 'success'), entry(2, 'completed', 'success')]));
    expect(trayView(m).state).toBe('ok');
    expect(trayView(updateTray(INITIAL_TRAY, snap([]))).state).toBe('idle');
  });

  it('shows a new failure until the window is seen, and offline above everything', () => {
    let m = updateTray(INITIAL_TRAY, snap([entry(1, 'running')]));
    m = updateTray(m, snap([entry(1, 'completed', 'failure')]));
    expect(trayView(m)).toMatchObject({ state: 'failed', counts: { failed: 1 } });
    expect(trayView(m).tooltip).toContain('1 failed');
    m = updateTray(m, snap([entry(1, 'completed', 'failure')], { online: false }));
    expect(trayView(m).state).toBe('offline');
    m = updateTray(acknowledge(m), snap([entry(1, 'completed', 'failure')]));
    // Seen once, the same failure does not come back on the next snapshot.
    expect(trayView(m).state).toBe('ok');
  });

  it('puts steps waiting for the user before running ones', () => {
    const m = updateTray(INITIAL_TRAY, snap([entry(1, 'running')], { needsInput: 2 }));
    expect(trayView(m)).toMatchObject({ state: 'needs-input', counts: { needsInput: 2 } });
    expect(trayView(updateTray(INITIAL_TRAY, snap([], { signedIn: false }))).state).toBe('idle');
  });

  it('says in its tooltip and menu what of the user’s cannot start, whatever else it shows', () => {
    const cannotStart = [
      { name: 'arm64', waiting: 2 },
      { name: 'riscv64', waiting: 1 },
    ];
    const m = updateTray(INITIAL_TRAY, snap([entry(1, 'running')], { cannotStart }));
    const view = trayView(m);
    expect(view.state).toBe('running');
    expect(view.tooltip).toBe(
      'Debusine Desktop: 1 running; 3 of yours cannot start: no arm64 or riscv64 worker is connected',
    );
    const menu = trayMenuTemplate(view, { showWindow: () => undefined, quit: () => undefined });
    expect(menu[1]).toEqual({
      label: '3 of yours cannot start: no arm64 or riscv64 worker is connected',
      enabled: false,
    });
    const any = trayView(
      updateTray(INITIAL_TRAY, snap([], { cannotStart: [{ name: null, waiting: 1 }] })),
    );
    expect(any.tooltip).toContain('1 of yours cannot start: no worker is connected');
    // Offline, the last answer is not repeated as if it were known now.
    const offline = trayView(updateTray(INITIAL_TRAY, snap([], { cannotStart, online: false })));
    expect(offline.tooltip).toBe('Debusine Desktop: offline');
    expect(offline.cannotStart).toBeNull();
    expect(trayView(updateTray(INITIAL_TRAY, snap([]))).cannotStart).toBeNull();
  });

  it('lists the watched work requests in its menu, each opening its page', () => {
    const opened: number[] = [];
    const view = trayView(
      updateTray(INITIAL_TRAY, snap([entry(7, 'running'), entry(9, 'completed', 'success')])),
    );
    const menu = trayMenuTemplate(view, {
      showWindow: () => undefined,
      quit: () => undefined,
      openWorkRequest: (id) => opened.push(id),
    });
    const labels = menu.map((item) => item.label);
    expect(labels[0]).toBe('1 running · 0 failed · 0 waiting for you');
    expect(labels).toContain('#9 noop: success');
    expect(labels).toContain('#7 noop: running');
    const item = menu.find((i) => i.label === '#7 noop: running');
    (item?.click as (() => void) | undefined)?.();
    expect(opened).toEqual([7]);
  });
});

describe('the window state', () => {
  it('keeps sane values and drops a place off every display', () => {
    expect(parseWindowState({ width: 10, height: 10 })).toMatchObject({ width: 1200 });
    expect(parseWindowState('nonsense')).toMatchObject({ width: 1200 });
    const state = parseWindowState({ x: 3000, y: 100, width: 1000, height: 700, maximized: true });
    const display = { x: 0, y: 0, width: 1920, height: 1080 };
    expect(fitToDisplays(state, [display])).toEqual({ width: 1000, height: 700, maximized: true });
    expect(fitToDisplays(state, [display, { x: 1920, y: 0, width: 1920, height: 1080 }])).toEqual(
      state,
    );
  });
});
