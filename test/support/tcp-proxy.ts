/**
 * A loopback TCP proxy a test controls: `cut()` breaks every connection and refuses new
 * ones (an outage, without touching the shared sandbox server), `restore()` lets them in.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** `http://127.0.0.1:{port}` + the target's path, e.g. an API URL through the proxy. */
  url(path?: string): string;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
  /** Connections accepted while up (to see reconnects). */
  readonly connections: number;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let up = true;
  let connections = 0;
  const server: Server = createServer((client) => {
    if (!up) {
      client.destroy();
      return;
    }
    connections++;
    const upstream = createConnection({ host: targetHost, port: targetPort });
    sockets.add(client);
    sockets.add(upstream);
    const drop = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no proxy port');
  return {
    port: address.port,
    url: (path = '') => `http://127.0.0.1:${String(address.port)}${path}`,
    cut: () => {
      up = false;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
    restore: () => {
      up = true;
    },
    close: async () => {
      up = false;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
    },
    get connections() {
      return connections;
    },
  };
}
