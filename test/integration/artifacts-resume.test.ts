import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DebusineClient } from '../../src/main/api/client';
import { downloadArtifactFile } from '../../src/main/artifacts/transfer/download';
import { UploadJobStore } from '../../src/main/artifacts/transfer/job-store';
import { CATEGORIES } from '../../src/main/artifacts/local/kind-data';
import { LocalArtifact } from '../../src/main/artifacts/local/local-artifact';
import { resumeUploads, uploadArtifact } from '../../src/main/artifacts/transfer/upload-engine';
import { DebusineError } from '../../src/shared/errors';
import { clientFor } from '../support/clients';
import { hasServer, testServer } from '../support/sandbox';

const MiB = 1024 * 1024;

/**
 * A TCP proxy in front of the real server that counts the bytes clients send, and can cut
 * every connection once a budget is spent (a dropped network, mid-request).
 */
class CuttingProxy {
  sent = 0;
  cuts = 0;
  budget = Infinity;
  down = false;
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();

  constructor(target: URL) {
    this.#server = createServer((client) => {
      if (this.down) {
        client.destroy();
        return;
      }
      const upstream = connect(Number(target.port), target.hostname);
      this.#sockets.add(client).add(upstream);
      client.on('data', (chunk: Buffer) => {
        this.sent += chunk.length;
        if (this.sent > this.budget) {
          this.down = true;
          this.cuts++;
          this.cut();
          return;
        }
        upstream.write(chunk);
      });
      upstream.pipe(client);
      const close = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', close).on('close', close);
      upstream.on('error', close).on('close', close);
    });
  }

  cut(): void {
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const address = this.#server.address();
    if (typeof address !== 'object' || address === null) throw new Error('no port');
    return address.port;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise((resolve) => this.#server.close(resolve));
  }
}

describe.runIf(hasServer('current'))('an interrupted upload to the current server', () => {
  const server = testServer('current');
  const direct = clientFor(server);
  const target = new URL(server.apiUrl);
  const proxy = new CuttingProxy(target);
  let viaProxy: DebusineClient;

  beforeAll(async () => {
    const port = await proxy.listen();
    const url = new URL(server.apiUrl);
    url.port = String(port);
    viaProxy = new DebusineClient({
      apiUrl: url.toString(),
      token: server.users.owner.token,
      scope: server.scope,
    });
  });
  afterAll(async () => {
    await viaProxy.close();
    await direct.close();
    await proxy.close();
  });

  it('resumes after a restart from what the server confirmed, and the server accepts the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ddt-resume-'));
    const size = 5 * MiB + 12345;
    const local = join(dir, 'big.log');
    writeFileSync(local, randomBytes(size));
    const artifact = new LocalArtifact(CATEGORIES.workRequestDebugLogs);
    await artifact.addLocalFile(local);
    const store = new UploadJobStore(join(dir, 'jobs'));

    // The network goes away in the middle of the third 1 MiB chunk, for good.
    proxy.budget = 2.5 * MiB;
    const error = await uploadArtifact(viaProxy, artifact, {
      jobStore: store,
      chunkSize: MiB,
      retryBaseMs: 5,
      maxRetries: 2,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DebusineError);
    expect((error as DebusineError).code).toBe('network');
    const [job] = await store.list();
    expect(job).toMatchObject({ state: 'uploading' });
    expect(job?.parts[0]?.done).toEqual([]);

    // "Restart": a new client, the network back, and the persisted job.
    proxy.down = false;
    proxy.budget = Infinity;
    proxy.sent = 0;
    const fresh = new DebusineClient({
      apiUrl: viaProxy.apiUrl,
      token: server.users.owner.token,
      scope: server.scope,
    });
    const outcomes = await resumeUploads(store, () => fresh, { chunkSize: MiB });
    await fresh.close();
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]?.error).toBeUndefined();
    expect(outcomes[0]?.result?.uploaded).toEqual([['big.log']]);
    expect(await store.list()).toEqual([]);
    // At least two whole chunks were confirmed before the cut and are not sent again:
    // the resumed upload sends at most the rest plus request headers.
    expect(proxy.sent).toBeLessThan(size - 2 * MiB + 64 * 1024);
    expect(proxy.sent).toBeGreaterThan(size - 3 * MiB);

    const copy = join(dir, 'copy.log');
    const id = job?.parts[0]?.artifactId ?? 0;
    await downloadArtifactFile(direct, id, 'big.log', copy);
    const digest = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');
    expect(digest(copy)).toBe(digest(local));
  });

  it('retries a chunk after a dropped connection within one run, without re-sending confirmed bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ddt-retry-'));
    const size = 4 * MiB;
    const local = join(dir, 'retry.log');
    writeFileSync(local, randomBytes(size));
    const artifact = new LocalArtifact(CATEGORIES.workRequestDebugLogs);
    await artifact.addLocalFile(local);
    proxy.down = false;
    proxy.sent = 0;
    proxy.budget = 1.5 * MiB;
    // The proxy comes back shortly after the cut, as a flaky network would.
    const timer = setInterval(() => {
      if (proxy.down) {
        proxy.down = false;
        proxy.budget = Infinity;
      }
    }, 20);
    let id: number;
    try {
      const result = await uploadArtifact(viaProxy, artifact, { chunkSize: MiB, retryBaseMs: 50 });
      expect(result.uploaded).toEqual(['retry.log']);
      id = result.id;
    } finally {
      clearInterval(timer);
    }
    expect(proxy.cuts).toBeGreaterThanOrEqual(2);
    // One chunk confirmed before the cut, half a chunk lost: about 4.5 MiB in all.
    expect(proxy.sent).toBeLessThan(size + MiB + 64 * 1024);
    const copy = join(dir, 'copy.log');
    await downloadArtifactFile(direct, id, 'retry.log', copy);
    const digest = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');
    expect(digest(copy)).toBe(digest(local));
  });
});
