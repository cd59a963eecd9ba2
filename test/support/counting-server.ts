/**
 * A local HTTP server standing in for Debusine's artifact endpoint, that counts every
 * request it receives: tests of refused uploads assert that nothing at all reached it.
 * It creates artifacts as already holding every file (`files_to_upload` empty), so that a
 * successful upload ends after the create request.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { HttpTransport } from '../../src/main/api/http';
import { listenOnLoopback } from './loopback-http';

export interface CountingServer {
  transport: HttpTransport;
  /** Method and path of every request received, in order. */
  requests: string[];
  /** What each created artifact says it still waits for (nothing, unless a test sets it). */
  filesToUpload: string[];
  close: () => Promise<void>;
}

export async function countingServer(): Promise<CountingServer> {
  const requests: string[] = [];
  const state = { filesToUpload: [] as string[] };
  let id = 0;
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method ?? ''} ${req.url ?? ''}`);
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/api/1.0/artifact/') {
        id++;
        res.writeHead(201, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id,
            workspace: 'System',
            category: 'debian:upload',
            created_at: '2026-11-21T12:00:00Z',
            data: {},
            download_tar_gz_url: `/artifact/${String(id)}/download/`,
            files_to_upload: state.filesToUpload,
            links: {},
          }),
        );
      } else {
        res.writeHead(404).end();
      }
    });
  });
  const listening = await listenOnLoopback(server);
  const transport = new HttpTransport({
    apiUrl: `${listening.origin}/api`,
    token: 't',
    retries: 0,
  });
  return {
    transport,
    requests,
    get filesToUpload() {
      return state.filesToUpload;
    },
    set filesToUpload(paths: string[]) {
      state.filesToUpload = paths;
    },
    close: listening.close,
  };
}

/**
 * A counting server for the enclosing describe block (or file), its log emptied before
 * each test; call the returned function inside a test to get it.
 */
export function useCountingServer(): () => CountingServer {
  let server: CountingServer | undefined;
  beforeAll(async () => {
    server = await countingServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    if (!server) return;
    server.requests.length = 0;
    server.filesToUpload = [];
  });
  return () => {
    if (!server) throw new Error('the counting server has not started');
    return server;
  };
}
