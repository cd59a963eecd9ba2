import { describe, expect, it } from 'vitest';
import { deepLinkFromArgv, parseDeepLink } from '../../src/main/app/deep-links';
import { acknowledge, INITIAL_TRAY, reduceTray } from '../../src/main/app/tray-state';
import { fitToDisplays, parseWindowState } from '../../src/main/app/window-state';
import type { EventMessage } from '../../src/main/bridge/event-outbox';

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
    expect(parseDeepLink(url)).toEqual({ kind, id, origin });
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

  it('finds a link among command-line arguments', () => {
    expect(
      deepLinkFromArgv(['--no-sandbox', '.', 'debusine-desktop://work-request/3']),
    ).toMatchObject({ id: 3 });
    expect(deepLinkFromArgv(['--flag'])).toBeNull();
  });
});

describe('the tray state', () => {
  const completed = (result: string): EventMessage => ({
    event: 'workRequest.completed',
    payload: { workRequestId: 1, completedAt: '', result, workspace: null, workflowRoot: null },
  });
  const connection = (status: string): EventMessage =>
    ({
      event: 'connection.state',
      payload: { serverId: null, status, since: '', error: null },
    }) as EventMessage;

  it('shows failures until the window is seen, and offline above all', () => {
    let m = reduceTray(INITIAL_TRAY, completed('success'));
    expect(m.state).toBe('ok');
    m = reduceTray(m, completed('failure'));
    expect(m.state).toBe('failed');
    m = reduceTray(m, connection('offline'));
    expect(m.state).toBe('offline');
    m = reduceTray(m, connection('online'));
    expect(m.state).toBe('failed');
    expect(acknowledge(m).state).toBe('ok');
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
