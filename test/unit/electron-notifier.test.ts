import type { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';

const created = vi.hoisted(() => [] as { options: Record<string, unknown>; emitter: unknown }[]);
vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  class Notification extends Emitter {
    static isSupported = () => true;
    shown = false;
    constructor(readonly options: Record<string, unknown>) {
      super();
      created.push({ options, emitter: this });
    }
    show(): void {
      this.shown = true;
    }
    close(): void {
      this.emit('close');
    }
  }
  return { Notification };
});

const { ElectronNotifier } = await import('../../src/main/app/electron-notifier');

describe('the Electron notifier', () => {
  it('shows the notification, and routes clicks and actions', () => {
    const notifier = new ElectronNotifier();
    const onClick = vi.fn();
    const onAction = vi.fn();
    notifier.show(
      {
        key: 'wr-1@t',
        title: 'Failed: noop #1',
        body: 'Workspace System · result: failure',
        workRequestId: 1,
        actions: [
          { id: 'retry', label: 'Retry' },
          { id: 'open-in-browser', label: 'Open in browser' },
        ],
        urgency: 'critical',
      },
      { onClick, onAction },
    );
    const last = created.at(-1);
    const emitter = last?.emitter as EventEmitter & { shown: boolean };
    expect(emitter.shown).toBe(true);
    expect(last?.options).toMatchObject({ title: 'Failed: noop #1', urgency: 'critical' });
    emitter.emit('click');
    expect(onClick).toHaveBeenCalledOnce();
    if (notifier.supportsActions) {
      expect(last?.options.actions).toEqual([
        { type: 'button', text: 'Retry' },
        { type: 'button', text: 'Open in browser' },
      ]);
      emitter.emit('action', { actionIndex: 1 }, 1);
      expect(onAction).toHaveBeenCalledWith('open-in-browser');
    } else {
      // Linux: no buttons; the app's detail view has Retry and Open in browser.
      expect(last?.options.actions).toEqual([]);
    }
  });
});
