import { openConnection } from '../../src/main/bridge/connection';
import { createDispatcher, type ServiceHandlers } from '../../src/main/bridge/dispatch';
import { EventHub } from '../../src/main/bridge/event-outbox';
import type { ClientMessage, DebusineApi, ServerMessage } from '../../src/shared/contract';
import type { SerializedError } from '../../src/shared/errors';
import { createMessageApi } from '../../src/shared/bridge-message-api';

/**
 * The bridge over an in-memory pair: the renderer's message API on one side, main's
 * connection and dispatcher on the other. Messages go through JSON, as on the socket, and
 * are delivered asynchronously, as on any real transport.
 */
export function memoryBridge(service: ServiceHandlers): {
  api: DebusineApi;
  hub: EventHub;
  close(): void;
} {
  const hub = new EventHub();
  let toRenderer: (message: ServerMessage) => void = () => undefined;
  let onClose: (error: SerializedError) => void = () => undefined;
  const connection = openConnection(createDispatcher(service), hub, (message) => {
    const copy = JSON.parse(JSON.stringify(message)) as ServerMessage;
    setTimeout(() => {
      toRenderer(copy);
    }, 0);
  });
  const api = createMessageApi(
    {
      send(message: ClientMessage) {
        const copy: unknown = JSON.parse(JSON.stringify(message));
        setTimeout(() => {
          connection.receive(copy);
        }, 0);
      },
      onMessage(receiver) {
        toRenderer = receiver;
      },
      onClose(callback) {
        onClose = callback;
      },
    },
    {
      transport: 'web',
      stageDropped: () => Promise.resolve({ ok: true, result: [] }),
    },
  );
  return {
    api,
    hub,
    close() {
      connection.close();
      onClose({ code: 'network', message: 'closed' });
    },
  };
}
