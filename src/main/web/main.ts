import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { serveStatic } from './static-files';

// Content Security Policy shared with the Electron window: scripts and styles only from the
// app itself, connections only back to the host that served it.
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self' ws://127.0.0.1:*; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return 0;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`DEBUSINE_DESKTOP_PORT must be a port number, not ${JSON.stringify(value)}`);
  }
  return port;
}

const root = resolve(import.meta.dirname, '../renderer');
const port = parsePort(process.env.DEBUSINE_DESKTOP_PORT);
const server = createServer((req, res) => {
  serveStatic(root, req, res, {
    'Content-Security-Policy': CSP,
    'X-Content-Type-Options': 'nosniff',
  }).catch((error: unknown) => {
    res.writeHead(500).end(error instanceof Error ? error.message : 'Internal error');
  });
});
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  if (address !== null && typeof address === 'object') {
    console.log(`Debusine Desktop is serving on http://127.0.0.1:${String(address.port)}/`);
  }
});
const stop = (): void => {
  server.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
