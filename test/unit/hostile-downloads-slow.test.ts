/**
 * A server that trickles: never silent long enough for a time-out, but slower than the
 * rate floor. Each download is stopped, says which artifact, which file and how many bytes
 * had come, leaves the destination as it was, and hangs up on the server. A server that is
 * slow but above the floor is not stopped.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { downloadArtifact, downloadArtifactFile } from '../../src/main/artifacts/transfer/download';
import { trickle } from '../support/fake-debusine';
import { expectRefused, hostileServer, playground } from '../support/hostile-downloads';
import { tarGz } from '../support/tar-build';

const server = hostileServer();

/** 1,000 bytes/s over 400 ms: the app's floor (1 KiB/s over 60 s), sped up for a test. */
const FLOOR = { bytesPerSecond: 1000, windowMs: 400 };
const slowTransport = () => server.fake.transport({ rateFloor: FLOOR });

const DATA = randomBytes(64 * 1024);

describe('a server sending slower than the floor', () => {
  it('stops one file, naming it, the artifact and the bytes', async () => {
    const ground = playground();
    // 10 bytes every 50 ms: 200 bytes/s, a fifth of the floor, and never silent.
    const id = server.artifact([{ path: 'slow.bin', content: DATA, serve: trickle(DATA, 10, 50) }]);
    const error = await expectRefused(
      ground,
      () => downloadArtifactFile(slowTransport(), id, 'slow.bin', join(ground.dest, 'slow.bin')),
      {
        code: 'timeout',
        rule: 'download-rate',
        message: new RegExp(
          `slow\\.bin of artifact ${String(id)}.*slower than 1000 bytes/s over 0\\.4 s \\(\\d+ of 65536 bytes`,
        ),
      },
    );
    expect(error.details.received).toBeGreaterThan(0);
    expect(error.details.received).toBeLessThan(DATA.length);
    await expect.poll(() => server.downloadsOf(id).at(-1)?.closedEarly).toBe(true);
  });

  it.each(['files', 'archive', 'tarball'] as const)('stops a whole artifact (%s)', async (mode) => {
    const ground = playground();
    const files = [
      { path: 'a.bin', content: DATA, serve: trickle(DATA, 10, 50) },
      { path: 'b.txt', content: 'b' },
    ];
    const gz = tarGz(files.map((f) => ({ name: f.path, body: f.content })));
    const id = server.artifact(files, trickle(gz, 10, 50));
    await expectRefused(
      ground,
      () =>
        downloadArtifact(slowTransport(), id, ground.dest, {
          ...(mode === 'tarball' ? { tarball: true } : { via: mode }),
        }),
      { code: 'timeout', rule: 'download-rate', message: new RegExp(`artifact ${String(id)}`) },
    );
  });

  it("stops the artifact's record (its JSON) before any file", async () => {
    const ground = playground();
    const id = server.nextId();
    server.fake.artifact(id, [{ path: 'a.txt', content: 'a' }], {
      record: (json) => trickle(json, 10, 50),
    });
    await expectRefused(ground, () => downloadArtifact(slowTransport(), id, ground.dest), {
      code: 'timeout',
      rule: 'answer-rate',
      message:
        /answer to artifactGet was stopped: it arrived slower than 1000 bytes\/s over 0\.4 s \(\d+ bytes had arrived\)/,
    });
    expect(server.downloadsOf(id)).toEqual([]);
  });

  it('lets a slow download above the floor finish', async () => {
    const ground = playground();
    const some = DATA.subarray(0, 40_000);
    // 500 bytes every 50 ms, for 4 s: a hundred times a floor of 100 bytes/s over 3 s. The
    // window is long so that a machine too busy to run the timers for a moment does not
    // look like a slow server (both ends of this test share one event loop).
    const id = server.artifact([{ path: 'ok.bin', content: some, serve: trickle(some, 500, 50) }]);
    const transport = server.fake.transport({ rateFloor: { bytesPerSecond: 100, windowMs: 3000 } });
    await downloadArtifactFile(transport, id, 'ok.bin', join(ground.dest, 'ok.bin'));
    expect(readFileSync(join(ground.dest, 'ok.bin'))).toEqual(some);
    // It takes 4 s by design, and more on a busy machine: vitest's 5 s would cut it short.
  }, 30_000);
});
