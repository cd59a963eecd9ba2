/**
 * The app's signing against a real Debusine: an externaldebsign step (seeded in the
 * database, as the workflows that make one need build environments the sandbox lacks)
 * waiting on an upload made by dpkg-buildpackage, signed by the app with the real gpg and
 * debsign in a GnuPG home of the test's own. The server's own checks of the signed upload
 * run (no new paths, a changed .changes, nothing else changed), and the files it stores
 * carry valid signatures by the test key.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadArtifactFile } from '../../src/main/artifacts/transfer/download';
import { keyLookup, signAndComplete } from '../../src/main/signing/debsign';
import { debsignRunner } from '../../src/main/signing/run-debsign';
import { clientFor } from '../support/clients';
import { debianFixtures, have, missingDebianTools } from '../support/debian-fixtures';
import { testGnupg, type TestGnupg } from '../support/gnupg';
import { testServer, usingExternalServers } from '../support/sandbox';
import { seedSigningStep } from '../support/seed-steps';

const TOOLS = ['gpg', 'gpgv', 'gpgconf', 'debsign'];
const runnable = !usingExternalServers() && missingDebianTools() === undefined && TOOLS.every(have);

describe.runIf(runnable)('signing a waiting step from the app, on the current server', () => {
  const server = testServer('current');
  const client = clientFor(server);
  let gnupg: TestGnupg;
  let key: string;
  let tmpRoot: string;

  beforeAll(async () => {
    gnupg = await testGnupg();
    key = await gnupg.addKey('Debusine Desktop Tests <tests@example.org>');
    tmpRoot = await mkdtemp(join(tmpdir(), 'ddt-sign-real-'));
  }, 120_000);
  afterAll(async () => {
    await client.close();
    await gnupg.close();
    await rm(tmpRoot, { recursive: true, force: true });
  });

  it('signs the upload with debsign, uploads it and completes the step', async () => {
    const fx = debianFixtures();
    const { id, unsigned } = await seedSigningStep(client, server);

    // The app did not make this upload: it signs once the user confirmed what was shown.
    const options = { keys: keyLookup(gnupg.env), run: debsignRunner(gnupg.env), tmpRoot };
    const unconfirmed = await signAndComplete(client, id, options);
    if (unconfirmed.status !== 'review')
      throw new Error(`not asked to review: ${unconfirmed.status}`);
    expect(unconfirmed.review).toMatchObject({ verdict: 'not-made-here', artifactId: unsigned.id });
    const result = await signAndComplete(client, id, {
      ...options,
      reviewed: unconfirmed.review.digest,
    });
    if (result.status !== 'signed') throw new Error(`not signed: ${result.reason}`);
    expect(result.key.fingerprint).toBe(key);
    expect(result.keyReason).toBe(
      "It is your secret key for “tests@example.org”: the .changes' Changed-By (its uploader) " +
        'is “Debusine Desktop Tests <tests@example.org>”, and DEBSIGN_KEYID is not set.',
    );
    expect(result.workRequest).toMatchObject({ id, status: 'completed', result: 'success' });
    expect(await client.workRequestGet(id)).toMatchObject({ status: 'completed' });

    // What the server stores: the same paths, the three signed ones signed by the key.
    const signed = await client.artifactGet(result.signedArtifactId);
    expect(signed.category).toBe('debian:upload');
    const all = [fx.changes, fx.dsc, fx.sourceTarball, fx.buildinfo, ...fx.debs].map((p) =>
      basename(p),
    );
    expect(Object.keys(signed.files).sort()).toEqual(all.sort());
    const out = await mkdtemp(join(gnupg.dir, 'stored-'));
    for (const name of [fx.changes, fx.dsc, fx.buildinfo].map((p) => basename(p))) {
      await downloadArtifactFile(client, signed, name, join(out, name));
      expect(await gnupg.signer(join(out, name)), name).toBe(key);
    }
    // The files the upload left remote are the unsigned upload's, byte for byte.
    const before = await client.artifactGet(unsigned.id);
    for (const name of [fx.sourceTarball, ...fx.debs].map((p) => basename(p))) {
      expect(signed.files[name]?.checksums.sha256).toBe(before.files[name]?.checksums.sha256);
    }
    // The server relates the signed upload to the unsigned one.
    const relations = await client.relationList({ artifactId: result.signedArtifactId });
    expect(relations.some((r) => r.target === unsigned.id && r.type === 'relates-to')).toBe(true);
  });

  it("asks the server before signing another user's step, and signs nothing", async () => {
    const { id } = await seedSigningStep(client, server);
    // Bob may read the step (a public workspace) but did not create it.
    const bob = clientFor(server, 'noRoles');
    let debsignRuns = 0;
    const real = debsignRunner(gnupg.env);
    try {
      const options = {
        keys: keyLookup(gnupg.env),
        run: (args: Parameters<typeof real>[0]) => {
          debsignRuns += 1;
          return real(args);
        },
        tmpRoot,
      };
      const unconfirmed = await signAndComplete(bob, id, options);
      if (unconfirmed.status !== 'review')
        throw new Error(`not asked to review: ${unconfirmed.status}`);
      const error = await signAndComplete(bob, id, {
        ...options,
        reviewed: unconfirmed.review.digest,
      }).catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: 'forbidden',
        details: { rule: 'signing.not-yours' },
        message: expect.stringContaining('Only the user who created the work request') as string,
      });
      expect(debsignRuns).toBe(0);
      // The step still waits, for its creator, who can sign it.
      expect(await client.workRequestGet(id)).toMatchObject({ status: 'running' });
      const mine = await signAndComplete(client, id, {
        ...options,
        reviewed: unconfirmed.review.digest,
      });
      expect(mine.status).toBe('signed');
      expect(debsignRuns).toBe(1);
    } finally {
      await bob.close();
    }
  });
});
