import { describe, expect, it, vi } from 'vitest';
import { DebusineError } from '../../src/shared/errors';
import type { WorkRequestResponse } from '../../src/shared/models';
import { runCommandHook } from '../../src/main/watch/command-hook';
import { CompletionRouter, type WorkRequestSource } from '../../src/main/watch/completion-router';
import { completionSocketUrl } from '../../src/main/watch/completion-watcher';
import { compareTimestamps, processMessage } from '../../src/main/watch/messages';
import { parseWorkRequestRef } from '../../src/main/watch/watch-list';
import { routerFixture, workRequestSourceOf } from '../support/completion-router';
import { workRequestFixture } from '../support/work-requests';

describe("the completion websocket's message handler", () => {
  it('runs the handler named by `text` and returns true', () => {
    const connected = vi.fn();
    expect(processMessage('{"type":"websocket.send","text":"connected"}', { connected })).toBe(
      true,
    );
    expect(connected).toHaveBeenCalledWith({ type: 'websocket.send', text: 'connected' });
  });

  it.each([
    ['non-text frame', Buffer.from('{}')],
    ['bad JSON', '{'],
    ['not an object', '[1]'],
    ['unknown text', '{"text":"other"}'],
    ['no text', '{"type":"connection_rejected","reason":"x"}'],
  ])('returns false for %s', (_name, data) => {
    expect(processMessage(data, { connected: vi.fn() })).toBe(false);
  });

  it('raises token-disabled for reason_code TOKEN_DISABLED', () => {
    const run = () =>
      processMessage(
        '{"type":"connection_closed","reason_code":"TOKEN_DISABLED","reason":"x"}',
        {},
      );
    expect(run).toThrow(DebusineError);
    expect(run).toThrow(expect.objectContaining({ code: 'token-disabled' }) as Error);
  });

  it('orders timestamps to the microsecond, with or without a fraction', () => {
    expect(
      compareTimestamps('2026-11-21T11:36:10.441960Z', '2026-11-21T11:36:10.441961Z'),
    ).toBeLessThan(0);
    expect(compareTimestamps('2026-11-21T11:36:10Z', '2026-11-21T11:36:10.000000Z')).toBe(0);
    expect(
      compareTimestamps('2026-11-21T11:36:11Z', '2026-11-21T11:36:10.999999Z'),
    ).toBeGreaterThan(0);
  });

  it('builds the websocket URL with one slash, filters and an encoded since', () => {
    expect(
      completionSocketUrl('https://h/api/', {
        workspaces: ['a', 'b'],
        since: '2026-01-01T00:00:00+00:00',
      }),
    ).toBe(
      'wss://h/api/ws/1.0/work-request/on-completed/?workspaces=a%2Cb&completed_at_since=2026-01-01T00%3A00%3A00%2B00%3A00',
    );
  });
});

describe('watch list references', () => {
  it('parses ids and web URLs', () => {
    expect(parseWorkRequestRef(' #42 ')).toEqual({ id: 42 });
    expect(
      parseWorkRequestRef(
        'https://d.example/debian/developers/work-request/7/',
        'https://d.example',
      ),
    ).toEqual({ id: 7, scope: 'debian', workspace: 'developers' });
  });

  it('refuses other pages and other servers', () => {
    expect(() => parseWorkRequestRef('https://d.example/debian/developers/artifact/7/')).toThrow(
      /not a work request page/,
    );
    expect(() =>
      parseWorkRequestRef('https://other.example/s/w/work-request/7/', 'https://d.example'),
    ).toThrow(/another server/);
    expect(() => parseWorkRequestRef('seven')).toThrow(DebusineError);
  });
});

const wr = workRequestFixture;

describe('the completion router', () => {
  const setup = (requests: WorkRequestResponse[]) => routerFixture(requests);
  const event = (id: number, result = 'success') => ({
    workRequestId: id,
    completedAt: `2026-01-01T00:00:0${String(id % 10)}Z`,
    result,
    receivedAt: Date.now(),
  });

  it('notifies once per workflow: steps are grouped under their root', async () => {
    const root = wr(10, {
      task_type: 'Workflow',
      task_name: 'sbuild',
      url: '/debusine/System/work-request/10/',
    });
    const step = wr(11, { workflow_root: 10, parent: 10 });
    const t = await setup([root, step]);
    await t.router.started({ ...root, status: 'running' });
    await t.router.handleCompletion(event(11));
    expect(t.notifier.shown).toHaveLength(0);
    await t.router.handleCompletion(event(10, 'failure'));
    await t.router.handleCompletion(event(10, 'failure'));
    expect(t.notifier.shown).toHaveLength(1);
    const shown = t.notifier.shown[0];
    expect(shown?.notification).toMatchObject({
      title: 'Failed: workflow sbuild #10',
      urgency: 'critical',
    });
    expect(shown?.notification.actions.map((a) => a.id)).toEqual(['retry', 'open-in-browser']);
    const retried: number[] = [];
    t.router.on('retry', (id) => retried.push(id));
    shown?.handlers.onAction('retry');
    shown?.handlers.onAction('open-in-browser');
    await new Promise((r) => setTimeout(r, 10));
    expect(retried).toEqual([10]);
    expect(t.opened).toEqual([10]);
    await t.done();
  });

  it('follows the mode: watched only, mine, or a workspace', async () => {
    const other = wr(3, { created_by: 9, workspace: 'Playground' });
    const mine = wr(4, { created_by: 2 });
    const t = await setup([other, mine]);
    await t.router.handleCompletion(event(4));
    expect(t.notifier.shown).toHaveLength(0);
    await t.router.started(wr(5, { created_by: 2, status: 'pending' }));
    t.router.setFilter({ mode: 'mine', workspaces: [] });
    await t.router.handleCompletion(event(3));
    await t.router.handleCompletion({ ...event(4), completedAt: 'later' });
    expect(t.notifier.shown.map((s) => s.notification.workRequestId)).toEqual([4]);
    t.router.setFilter({ mode: 'workspace', workspaces: ['Playground'] });
    await t.router.handleCompletion({ ...event(3), completedAt: 'later' });
    expect(t.notifier.shown.map((s) => s.notification.workRequestId)).toEqual([4, 3]);
    await t.done();
  });

  it('notifies a work request that completed just before it was watched', async () => {
    const t = await setup([wr(6)]);
    await t.router.handleCompletion(event(6));
    expect(t.notifier.shown).toHaveLength(0);
    await t.router.started(wr(6, { status: 'pending' }));
    expect(t.notifier.shown).toHaveLength(1);
    await t.done();
  });

  it('survives a completion it cannot read: reported to a listener, else logged', async () => {
    const t = await setup([]);
    const broken = new DebusineError('server', 'The server answered HTTP 500');
    const source = { workRequestGet: () => Promise.reject(broken), workRequestIter: () => [] };
    const router = new CompletionRouter({
      client: source as unknown as WorkRequestSource,
      watchList: t.watchList,
      notifier: t.notifier,
      filter: { mode: 'mine', workspaces: [] },
    });
    // Nobody listening: an 'error' event would throw out of the handler; it is logged.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      await expect(router.handleCompletion(event(7))).resolves.toBeUndefined();
      expect(warn).toHaveBeenCalledWith('Notifications: The server answered HTTP 500');
    } finally {
      warn.mockRestore();
    }
    const errors: DebusineError[] = [];
    router.on('error', (e) => errors.push(e));
    await router.handleCompletion(event(8));
    expect(errors).toEqual([broken]);
    expect(t.notifier.shown).toHaveLength(0);
    await t.done();
  });

  it('closes once a watch() under way has ended; refuses those asked after', async () => {
    // The service closes the router's client right after close(): a watch() still reading
    // then (the user watching something as the app moves to another server) failed with
    // "The client was closed".
    const workflow = wr(20, {
      task_type: 'Workflow',
      status: 'running',
      result: '',
      completed_at: null,
    });
    let asked = (): void => undefined;
    const reading = new Promise<void>((resolve) => (asked = resolve));
    let answer = (): void => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const lists = workRequestSourceOf([workflow]);
    const client: WorkRequestSource = {
      workRequestIter: (...args) => lists.workRequestIter(...args),
      workRequestGet: async () => {
        asked();
        await answered;
        return workflow;
      },
    };
    const t = await routerFixture([workflow], { client });
    const order: string[] = [];
    const watching = t.router.watch(20).then(() => order.push('watched'));
    await reading;
    const closing = t.router.close().then(() => order.push('closed'));
    // Runs whatever is queued already: a close() that does not wait for the read ends here.
    await new Promise(setImmediate);
    order.push('answered');
    answer();
    await Promise.all([watching, closing]);
    expect(order).toEqual(['answered', 'watched', 'closed']);
    expect(t.watchList.get(20)?.taskType).toBe('Workflow');
    await expect(t.router.watch(21)).rejects.toMatchObject({ code: 'cancelled' });
    await expect(t.router.started(wr(22, { status: 'pending' }))).rejects.toMatchObject({
      code: 'cancelled',
    });
    expect(t.watchList.has(21) || t.watchList.has(22)).toBe(false);
    await t.done();
  });
});

describe('the command hook', () => {
  it('runs the command with id and result as arguments, never through a shell', async () => {
    const run = await runCommandHook(
      {
        command: process.execPath,
        args: ['-e', 'console.log(JSON.stringify(process.argv.slice(1)))'],
      },
      12,
      'temporary failure; rm -rf /',
    );
    expect(JSON.parse(run.stdout)).toEqual(['12', 'temporary failure; rm -rf /']);
    expect(run.exitCode).toBe(0);
  });
});
