/**
 * The aggregate state the tray icon shows, folded from main's events. Icons differ in
 * shape as well as colour (peers.md: colour alone is not enough).
 */
import type { EventMessage } from '../bridge/event-outbox';

export type TrayState = 'idle' | 'ok' | 'failed' | 'offline';

const FAILED_RESULTS = new Set(['failure', 'error', 'temporary failure']);

export interface TrayModel {
  state: TrayState;
  /** Failures seen since the user last looked at the window. */
  unseenFailures: number;
  online: boolean;
}

export const INITIAL_TRAY: TrayModel = { state: 'idle', unseenFailures: 0, online: true };

export function reduceTray(model: TrayModel, message: EventMessage): TrayModel {
  let next: TrayModel;
  if (message.event === 'connection.state') {
    const { status } = message.payload as EventMessage<'connection.state'>['payload'];
    // Only a real outage counts: reconnecting after a blip is not "offline" yet.
    next = { ...model, online: status !== 'offline' };
  } else if (message.event === 'workRequest.completed') {
    const { result } = message.payload as EventMessage<'workRequest.completed'>['payload'];
    next = FAILED_RESULTS.has(result)
      ? { ...model, unseenFailures: model.unseenFailures + 1 }
      : { ...model, state: model.state === 'idle' ? 'ok' : model.state };
  } else {
    return model;
  }
  return { ...next, state: stateOf(next, next.state) };
}

/** The window was shown: failures count as seen. */
export function acknowledge(model: TrayModel): TrayModel {
  const next = { ...model, unseenFailures: 0 };
  return { ...next, state: stateOf(next, model.state === 'failed' ? 'ok' : model.state) };
}

function stateOf(model: TrayModel, previous: TrayState): TrayState {
  if (!model.online) return 'offline';
  if (model.unseenFailures > 0) return 'failed';
  return previous === 'offline' || previous === 'failed' ? 'ok' : previous;
}

export const TRAY_TOOLTIPS: Record<TrayState, string> = {
  idle: 'Debusine Desktop',
  ok: 'Debusine Desktop: all good',
  failed: 'Debusine Desktop: a work request failed',
  offline: 'Debusine Desktop: offline',
};
