/**
 * One renderer connected over a message transport (the web host's WebSocket, or the
 * in-memory pair of the tests): requests go to the dispatcher, events come from the hub
 * through this connection's outbox, held until the renderer says it is ready.
 */
import type { ClientMessage, ServerMessage } from '../../shared/contract';
import { CallerScope } from './caller';
import type { Dispatch } from './dispatch';
import { EventOutbox, type EventHub } from './event-outbox';

export interface BridgeConnection {
  /** Feeds one message received from the renderer (already JSON-decoded, untrusted). */
  receive(message: unknown): void;
  /** The renderer went: events stop, and what it opened is released. */
  close(): Promise<void>;
}

export function openConnection(
  dispatch: Dispatch,
  hub: EventHub,
  send: (message: ServerMessage) => void,
): BridgeConnection {
  const outbox = new EventOutbox(({ event, payload }) => {
    send({ type: 'event', event, payload });
  });
  const detach = hub.attach(outbox);
  const caller = new CallerScope((event, payload) => {
    outbox.push(event, payload);
  });
  let open = true;
  return {
    receive(message) {
      const parsed = parseClientMessage(message);
      if (parsed === null || !open) return;
      if (parsed.type === 'ready') {
        outbox.markReady();
        return;
      }
      void dispatch(parsed.channel, parsed.args, caller).then((reply) => {
        if (open) send({ type: 'reply', id: parsed.id, reply });
      });
    },
    close() {
      open = false;
      detach();
      return caller.close();
    },
  };
}

/** A malformed message has no id to answer to, so it is dropped. */
function parseClientMessage(value: unknown): ClientMessage | null {
  if (typeof value !== 'object' || value === null) return null;
  const message = value as Record<string, unknown>;
  if (message.type === 'ready') return { type: 'ready' };
  if (message.type === 'request' && Number.isSafeInteger(message.id)) {
    return {
      type: 'request',
      id: message.id as number,
      channel: typeof message.channel === 'string' ? message.channel : '',
      args: message.args,
    };
  }
  return null;
}
