/**
 * A hostile server's strings where the desktop shows them outside the window: a completion
 * whose result is 60 KiB, a task name of 60 KiB, right-to-left overrides. Every title and
 * body is bounded, made visible, and the result shown is one Debusine has.
 */
import { describe, expect, it } from 'vitest';
import { INITIAL_TRAY, trayView, updateTray } from '../../src/main/app/tray-state';
import { completionNotification } from '../../src/main/notify/completion-notification';
import { needsInputNotification } from '../../src/main/notify/needs-input-notification';
import { visibleNotification } from '../../src/main/notify/notifier';
import { workRequestCompletedSchema } from '../../src/main/watch/messages';
import { knownResult } from '../../src/shared/results/end';
import { BODY_MAX, TITLE_MAX, boundedText } from '../../src/shared/shown-text';
import { routerFixture } from '../support/completion-router';
import { workRequestFixture } from '../support/work-requests';

const HUGE = 'A'.repeat(60 * 1024);
const RLO = '\u202E';
const INVISIBLE = /[\p{Cc}\p{Cf}]/u;

describe('boundedText', () => {
  it('leaves short visible text as it is', () => {
    expect(boundedText('Failed: workflow sbuild #42', 200)).toBe('Failed: workflow sbuild #42');
  });

  it('cuts 60 KiB to the bound, with an ellipsis', () => {
    const shown = boundedText(HUGE, 200);
    expect(shown).toHaveLength(200);
    expect(shown.endsWith('…')).toBe(true);
  });

  it('shows bidi overrides and zero-width characters as marks, within the bound', () => {
    const shown = boundedText(`evil${RLO}txt.exe\u200B`, 200);
    expect(shown).toBe('evil<U+202E>txt.exe<U+200B>');
    const many = boundedText(RLO.repeat(1000), 50);
    expect(many.length).toBeLessThanOrEqual(50);
    expect(many).not.toMatch(INVISIBLE);
  });

  it('never cuts an emoji in half', () => {
    const shown = boundedText('😀'.repeat(300), 200);
    expect(shown.length).toBeLessThanOrEqual(200);
    expect(shown).toBe(`${'😀'.repeat(99)}…`);
  });
});

describe('the results a notification may show', () => {
  it('are those Debusine has; anything else is unknown', () => {
    for (const r of ['', 'success', 'failure', 'error', 'skipped', 'temporary failure']) {
      expect(knownResult(r)).toBe(r);
    }
    expect(knownResult(HUGE)).toBe('unknown');
    expect(knownResult('Success')).toBe('unknown');
    expect(knownResult(`success${RLO}`)).toBe('unknown');
  });

  it('a completion message with a 60 KiB result is read as unknown', () => {
    const parsed = workRequestCompletedSchema.parse({
      text: 'work_request_completed',
      work_request_id: 7,
      completed_at: '2026-01-01T00:00:00Z',
      result: HUGE,
    });
    expect(parsed.result).toBe('unknown');
  });
});

describe('a hostile completion', () => {
  it('gives a bounded notification naming a known result', async () => {
    const root = workRequestFixture(10, {
      task_type: 'Workflow',
      task_name: `${HUGE}${RLO}`,
      workspace: `${RLO}${HUGE}`,
    });
    const t = await routerFixture([root]);
    await t.router.started({ ...root, status: 'running' });
    await t.router.handleCompletion({
      workRequestId: 10,
      completedAt: '2026-01-01T00:00:00Z',
      result: HUGE,
      receivedAt: Date.now(),
    });
    const shown = t.notifier.shown[0]?.notification;
    expect(shown).toBeDefined();
    expect(shown?.title.length).toBeLessThanOrEqual(TITLE_MAX);
    expect(shown?.body.length).toBeLessThanOrEqual(BODY_MAX);
    expect(shown?.title.startsWith('Finished: workflow AAA')).toBe(true);
    expect(shown?.title).not.toMatch(INVISIBLE);
    expect(shown?.body).not.toContain(RLO);
    expect(shown?.body).not.toContain(HUGE.slice(0, 2000));
    expect(shown).toMatchObject({ result: 'unknown' });
    await t.done();
  });

  it('a known result keeps its word, the task name its place, each bounded', () => {
    const n = completionNotification(
      { workRequestId: 3, completedAt: 'x', result: 'failure' },
      { taskName: HUGE, taskType: 'Worker', workspace: HUGE },
      null,
      true,
      {
        workRequestId: 3,
        what: HUGE,
        why: `${RLO}${HUGE}`,
        log: null,
      } as unknown as Parameters<typeof completionNotification>[4],
    );
    expect(n.title.startsWith('Failed: AAA')).toBe(true);
    expect(n.title.length).toBeLessThanOrEqual(TITLE_MAX);
    expect(n.body.length).toBeLessThanOrEqual(BODY_MAX);
    expect(n.body).not.toContain(RLO);
  });

  it("a waiting step's notification is bounded too", () => {
    const step = workRequestFixture(5, { task_type: 'Wait', task_name: 'confirm' });
    const n = needsInputNotification(
      { ...step, workflow_data: { display_name: `${RLO}${HUGE}` } } as typeof step,
      'confirmation',
      { id: 4, name: HUGE, workspace: HUGE },
      true,
    );
    expect(n.title.length).toBeLessThanOrEqual(TITLE_MAX);
    expect(n.body.length).toBeLessThanOrEqual(BODY_MAX);
    expect(n.body).not.toContain(RLO);
  });

  it('any notification shown is bounded, its title on one line', () => {
    const n = visibleNotification({
      key: 'k',
      title: `${HUGE}\n${RLO}`,
      body: `${HUGE}\n`.repeat(3),
      workRequestId: 1,
      actions: [],
      urgency: 'normal' as const,
    });
    expect(n.title.length).toBeLessThanOrEqual(TITLE_MAX);
    expect(n.title).not.toContain('\n');
    expect(n.body.length).toBeLessThanOrEqual(BODY_MAX);
  });
});

describe("the tray menu's lines", () => {
  it('are bounded, made visible and name a known result', () => {
    const model = updateTray(INITIAL_TRAY, {
      online: true,
      signedIn: true,
      needsInput: 0,
      watched: [
        {
          workRequestId: 1,
          label: `${RLO}${HUGE}`,
          addedAt: '2026-11-21T12:00:00Z',
          lastStatus: 'completed',
          lastResult: `zz${HUGE}`,
          source: 'started',
          taskType: 'Worker',
          workspace: 'System',
          rootId: null,
        },
      ],
    });
    const view = trayView(model);
    const label = view.items[0]?.label ?? '';
    expect(label.length).toBeLessThanOrEqual(TITLE_MAX);
    expect(label).not.toContain(RLO);
    expect(view.tooltip.length).toBeLessThanOrEqual(TITLE_MAX);
    const short = trayView(
      updateTray(INITIAL_TRAY, {
        online: true,
        signedIn: true,
        needsInput: 0,
        watched: [
          {
            workRequestId: 2,
            label: 'noop',
            addedAt: '2026-11-21T12:00:00Z',
            lastStatus: 'completed',
            lastResult: `zz${HUGE}`,
            source: 'started',
            taskType: 'Worker',
            workspace: 'System',
            rootId: null,
          },
        ],
      }),
    );
    expect(short.items[0]?.label).toBe('#2 noop: unknown');
  });
});
