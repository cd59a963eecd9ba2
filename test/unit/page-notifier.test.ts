/**
 * The web host's notifier: every notification goes to the page as `notification.desktop`
 * with the title and body Electron's would show (the same builders, through the same
 * gate), and the page's click runs the handlers main kept for it.
 */
import { describe, expect, it, vi } from 'vitest';
import type { EventPayload } from '../../src/shared/contract';
import { completionNotification } from '../../src/main/notify/completion-notification';
import { NotificationGate } from '../../src/main/notify/gate';
import { KEPT_NOTIFICATIONS, PageNotifier } from '../../src/main/notify/page-notifier';

function recordingEmit() {
  const sent: EventPayload<'notification.desktop'>[] = [];
  const emit = ((event: string, payload: unknown) => {
    if (event === 'notification.desktop') {
      sent.push(payload as EventPayload<'notification.desktop'>);
    }
  }) as ConstructorParameters<typeof PageNotifier>[0];
  return { sent, emit };
}

const handlers = (onClick = vi.fn()) => ({ onClick, onAction: vi.fn() });

describe('the page notifier', () => {
  it("sends the page a failure's notification as the gate passes it, with the same texts", () => {
    const { sent, emit } = recordingEmit();
    const notifier = new PageNotifier(emit);
    const gate = new NotificationGate({
      inner: notifier,
      settings: () => ({
        mode: 'watched',
        workspaces: [],
        failuresOnly: false,
        snoozedUntil: null,
      }),
      recorded: () => undefined,
    });
    const built = completionNotification(
      { workRequestId: 701, completedAt: '2026-01-01T10:00:00Z', result: 'failure' },
      // A right-to-left override in a name the server chose shows as its mark.
      { taskName: 'sbuild\u202e', taskType: 'Worker', workspace: 'System' },
      null,
      notifier.supportsActions,
    );
    gate.show(built, handlers(), 'server-a');
    expect(sent).toEqual([
      {
        key: built.key,
        title: 'Failed: sbuild<U+202E> #701',
        body: 'Workspace System · result: failure',
        workRequestId: 701,
        urgency: 'critical',
      },
    ]);
    // Pages cannot show buttons: none are built for it.
    expect(built.actions).toEqual([]);
  });

  it("runs the click handlers main kept, by the notification's key", () => {
    const { emit } = recordingEmit();
    const notifier = new PageNotifier(emit);
    const first = vi.fn();
    const again = vi.fn();
    const note = {
      key: 'wr-5@t',
      title: 'Succeeded: noop #5',
      body: 'Workspace System · result: success',
      workRequestId: 5,
      actions: [],
      urgency: 'normal' as const,
    };
    notifier.show(note, handlers(first));
    // The same key again replaces it, click handlers and all.
    notifier.show(note, handlers(again));
    expect(notifier.activate('wr-5@t')).toBe(true);
    expect(first).not.toHaveBeenCalled();
    expect(again).toHaveBeenCalledOnce();
    expect(notifier.activate('wr-6@t')).toBe(false);
  });

  it(`keeps the handlers of the last ${String(KEPT_NOTIFICATIONS)} only`, () => {
    const { sent, emit } = recordingEmit();
    const notifier = new PageNotifier(emit);
    for (let id = 1; id <= KEPT_NOTIFICATIONS + 5; id++) {
      notifier.show(
        {
          key: `wr-${String(id)}`,
          title: `Succeeded: noop #${String(id)}`,
          body: '',
          workRequestId: id,
          actions: [],
          urgency: 'normal',
        },
        handlers(),
      );
    }
    expect(sent).toHaveLength(KEPT_NOTIFICATIONS + 5);
    expect(notifier.activate('wr-5')).toBe(false);
    expect(notifier.activate('wr-6')).toBe(true);
    expect(notifier.activate(`wr-${String(KEPT_NOTIFICATIONS + 5)}`)).toBe(true);
  });
});
