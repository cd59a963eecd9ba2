/**
 * Signing a waiting externaldebsign step as `debusine work-request sign` does, with the
 * real gpg and debsign in a GnuPG home of the test's own and a fake server serving the step
 * and an unsigned upload made by dpkg-buildpackage: the files the server receives carry
 * valid signatures by the key debsign would use (checked with gpgv; which key that is,
 * signing-key-choice.test.ts shows), the step is completed
 * with the new artifact, and each failure leaves nothing on the server and no temporary
 * directory behind.
 */
import { access, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { keyLookup, signAndComplete, type KeyLookup } from '../../src/main/signing/debsign';
import { readDebsignConfig } from '../../src/main/signing/devscripts-config';
import { gpgSecretKeys } from '../../src/main/signing/gpg-keys';
import { debsignRunner, type RunDebsign } from '../../src/main/signing/run-debsign';
import { keysNamedBy } from '../../src/main/signing/choose-key';
import { DebusineError } from '../../src/shared/errors';
import { debianFixtures, have, missingDebianTools } from '../support/debian-fixtures';
import { testGnupg, type TestGnupg } from '../support/gnupg';
import {
  fixtureUpload,
  signingServer,
  uploadMadeOf,
  type SigningServer,
} from '../support/signing-server';

const run = promisify(execFile);
const TOOLS = ['gpg', 'gpgv', 'gpgconf', 'debsign'];
const skip =
  missingDebianTools() ??
  (TOOLS.every(have) ? undefined : `needs ${TOOLS.join(', ')} (apt-get install devscripts gpg)`);

const UPLOADER = 'Debusine Desktop Tests <tests@example.org>';

// gpg makes a 3072-bit RSA key in a second or two, and debsign runs gpg three times.
describe.skipIf(skip)(
  'signing an externaldebsign step with gpg and debsign',
  { timeout: 60_000 },
  () => {
    let gnupg: TestGnupg;
    let testKey: string;
    let tmpRoot: string;
    let server: SigningServer;
    let files: { path: string; content: Buffer }[];

    /** The keys of the test's GnuPG home, and the devscripts files of its HOME (and its etc). */
    const lookup = (etc = join(gnupg.dir, 'etc-devscripts.conf')): KeyLookup => ({
      secretKeys: gpgSecretKeys(gnupg.env),
      debsignConfig: () => readDebsignConfig([etc, join(gnupg.home, '.devscripts')]),
    });
    const sign = (options: { key?: string; run?: RunDebsign; keys?: KeyLookup } = {}) => {
      const client = server.client();
      return signAndComplete(client, server.stepId, {
        keys: options.keys ?? lookup(),
        run: options.run ?? debsignRunner(gnupg.env),
        tmpRoot,
        // The upload the app made of these files: the server's is the same.
        uploadsMade: uploadMadeOf(files),
        ...(options.key ? { key: options.key } : {}),
      }).finally(() => client.close());
    };

    /** What the server received of the signed upload, written out for gpgv. */
    async function signersOfUpload(): Promise<Record<string, string | null>> {
      const [artifact] = server.created;
      if (!artifact) throw new Error('no artifact was created');
      const out = await mkdtemp(join(gnupg.dir, 'received-'));
      const signers: Record<string, string | null> = {};
      for (const [path, bytes] of artifact.uploaded) {
        await writeFile(join(out, path), bytes);
        signers[path] = await gnupg.signer(join(out, path));
      }
      return signers;
    }

    /** Nothing reached the server but reads, and no temporary directory is left. */
    async function expectNothingDone(): Promise<void> {
      expect(server.created).toEqual([]);
      expect(server.completions).toEqual([]);
      expect(server.stepStatus).toBe('running');
      expect(server.fake.served.filter((s) => s.path.includes('/files/'))).toEqual([]);
      expect(await readdir(tmpRoot)).toEqual([]);
    }

    beforeAll(async () => {
      gnupg = await testGnupg();
      // The uploader's: the fixtures' .changes is Changed-By this user.
      testKey = await gnupg.addKey(UPLOADER);
      files = await fixtureUpload();
    }, 120_000);
    afterAll(async () => {
      await gnupg.close();
    });
    beforeEach(async () => {
      tmpRoot = await mkdtemp(join(tmpdir(), 'ddt-sign-root-'));
      server = await signingServer({ files });
    });
    afterEach(async () => {
      await server.close();
      await rm(tmpRoot, { recursive: true, force: true });
      await rm(join(gnupg.home, '.devscripts'), { force: true });
    });

    it("signs with the uploader's key, uploads the signed files and completes the step", async () => {
      const result = await sign();
      expect(result).toMatchObject({
        status: 'signed',
        key: { fingerprint: testKey, userIds: [UPLOADER] },
        keyReason: expect.stringContaining("the .changes' Changed-By") as string,
      });
      const [artifact] = server.created;
      if (!artifact || result.status !== 'signed') throw new Error('not signed');
      expect(result.signedArtifactId).toBe(artifact.id);
      expect(server.completions).toEqual([{ signed_artifact: artifact.id }]);
      expect(server.stepStatus).toBe('completed');
      expect(result.workRequest.status).toBe('completed');
      // A new debian:upload in the unsigned upload's workspace, with the same paths.
      expect(artifact.request.category).toBe('debian:upload');
      expect(artifact.request.workspace).toBe('Debian');
      expect(Object.keys(artifact.request.files).sort()).toEqual(files.map((f) => f.path).sort());
      // Only the .changes, .dsc and .buildinfo were fetched and sent; the others stayed remote.
      const f = debianFixtures();
      const signedNames = [f.changes, f.dsc, f.buildinfo].map((p) => basename(p)).sort();
      expect([...artifact.uploaded.keys()].sort()).toEqual(signedNames);
      const fetched = server.fake.servedUnder('/debusine/').map((s) => basename(s.path));
      expect(fetched.sort()).toEqual(signedNames);
      expect(await signersOfUpload()).toEqual(
        Object.fromEntries(signedNames.map((n) => [n, testKey])),
      );
      expect(await readdir(tmpRoot)).toEqual([]);
    });

    it('uses DEBSIGN_KEYID, ~/.devscripts over /etc/devscripts.conf, as debsign reads them', async () => {
      const other = await gnupg.addKey('Other <other@example.org>');
      const third = await gnupg.addKey('Third <third@example.org>');
      const etc = join(gnupg.dir, 'etc-devscripts.conf');
      await writeFile(etc, `DEBSIGN_KEYID=${third}\n`);
      await writeFile(
        join(gnupg.home, '.devscripts'),
        `# mine\nexport DEBSIGN_KEYID="0x${other.slice(-16)}"  # the long id\n`,
      );
      try {
        const result = await sign({ keys: lookup(etc) });
        expect(result).toMatchObject({
          status: 'signed',
          key: { fingerprint: other },
          keyReason: expect.stringContaining(
            `DEBSIGN_KEYID in ${join(gnupg.home, '.devscripts')} (line 2)`,
          ) as string,
        });
        expect(new Set(Object.values(await signersOfUpload()))).toEqual(new Set([other]));
      } finally {
        await rm(etc, { force: true });
        await gnupg.deleteKeys([other, third]);
      }
    });

    it('reads ~/.devscripts as debsign itself does: the real debsign signs with that key', async () => {
      await gnupg.withKey('Other <other@example.org>', async (other) => {
        await writeFile(
          join(gnupg.home, '.devscripts'),
          `# mine\nexport DEBSIGN_KEYID="0x${other.slice(-16)}"  # the long id\n`,
        );
        // debsign without -k, on a copy of the unsigned upload's signed kinds.
        const dir = await mkdtemp(join(gnupg.dir, 'plain-debsign-'));
        const f = debianFixtures();
        for (const p of [f.changes, f.dsc, f.buildinfo]) {
          await writeFile(join(dir, basename(p)), await readFile(p));
        }
        await run('debsign', ['--re-sign', basename(f.changes)], { cwd: dir, env: gnupg.env });
        expect(await gnupg.signer(join(dir, basename(f.changes)))).toBe(other);
        // The app reads the same key from the same file.
        const config = await lookup().debsignConfig();
        expect(keysNamedBy(await lookup().secretKeys(), config.DEBSIGN_KEYID?.value ?? '')).toEqual(
          [expect.objectContaining({ fingerprint: other })],
        );
      });
    });

    it('asks which key when DEBSIGN_KEYID names none, then signs with the one chosen', async () => {
      await gnupg.withKey('Other <other@example.org>', async (other) => {
        await writeFile(join(gnupg.home, '.devscripts'), `DEBSIGN_KEYID=${'D'.repeat(40)}\n`);
        const asked = await sign();
        expect(asked).toMatchObject({ status: 'choose-key' });
        if (asked.status !== 'choose-key') throw new Error('signed');
        expect(asked.keys.map((k) => k.fingerprint).sort()).toEqual([other, testKey].sort());
        expect(asked.reason).toContain('which names none of your secret keys');
        await expectNothingDone();

        const result = await sign({ key: other });
        expect(result).toMatchObject({
          status: 'signed',
          key: { fingerprint: other },
          keyReason: "You chose it on the step's page.",
        });
        expect(new Set(Object.values(await signersOfUpload()))).toEqual(new Set([other]));
      });
    });

    it('refuses a key that is not one of the secret keys, before fetching anything', async () => {
      const run = vi.fn<RunDebsign>();
      await expect(sign({ key: 'A'.repeat(40), run })).rejects.toMatchObject({
        code: 'validation',
        details: { rule: 'signing.unknown-key' },
      });
      expect(run).not.toHaveBeenCalled();
      expect(server.fake.servedUnder('/debusine/')).toEqual([]);
      await expectNothingDone();
    });

    it('says the passphrase prompt was cancelled, and uploads nothing', async () => {
      const locked = await gnupg.addKey('Locked <locked@example.org>', 'correct horse');
      await gnupg.pinentry('cancel');
      try {
        const error = await sign({ key: locked }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DebusineError);
        expect(error).toMatchObject({
          code: 'cancelled',
          message: 'Signing was cancelled; nothing was uploaded.',
        });
        await expectNothingDone();
      } finally {
        await gnupg.deleteKeys([locked]);
      }
    });

    it('says a refused passphrase was refused, and uploads nothing', async () => {
      const locked = await gnupg.addKey('Locked <locked@example.org>', 'correct horse');
      await gnupg.pinentry('wrong');
      try {
        await expect(sign({ key: locked })).rejects.toMatchObject({
          code: 'validation',
          message: `gpg refused the passphrase of key ${locked}; nothing was uploaded.`,
          details: { rule: 'debsign.bad-passphrase' },
        });
        await expectNothingDone();
      } finally {
        await gnupg.deleteKeys([locked]);
      }
    });

    it('names the package to install when debsign or gpg is missing', async () => {
      const empty = join(gnupg.dir, 'empty-bin');
      await mkdir(empty, { recursive: true });
      await expect(
        sign({ run: debsignRunner({ ...gnupg.env, PATH: empty }) }),
      ).rejects.toMatchObject({
        code: 'unsupported',
        message: expect.stringContaining('install the package devscripts') as string,
      });
      await expectNothingDone();
      const noGpg = { ...lookup(), secretKeys: gpgSecretKeys({ ...gnupg.env, PATH: empty }) };
      await expect(sign({ keys: noGpg })).rejects.toMatchObject({
        code: 'unsupported',
        message: expect.stringContaining('install the package gnupg') as string,
      });
      await expectNothingDone();
    });

    it('says there is no secret key when gpg lists none, before fetching anything', async () => {
      const bare = await testGnupg();
      try {
        await expect(sign({ keys: keyLookup(bare.env) })).rejects.toMatchObject({
          code: 'validation',
          details: { rule: 'signing.no-secret-key' },
        });
        expect(server.fake.servedUnder('/debusine/')).toEqual([]);
        await expectNothingDone();
      } finally {
        await bare.close();
      }
    });

    it('says which artifact was made when the server refuses to complete the step', async () => {
      server.refuseCompletion('The signature is not from a key this archive accepts');
      const error = await sign().catch((e: unknown) => e);
      const [artifact] = server.created;
      if (!artifact) throw new Error('nothing was uploaded');
      expect(error).toMatchObject({
        code: 'validation',
        details: { signedArtifactId: artifact.id, key: testKey },
      });
      const message = (error as Error).message;
      expect(message).toContain(`key ${testKey} (${UPLOADER})`);
      expect(message).toContain('The signature is not from a key this archive accepts');
      expect(message).toContain(`artifact ${String(artifact.id)}`);
      expect(message).toContain('still waits');
      expect(server.stepStatus).toBe('running');
      expect(server.completions).toEqual([{ signed_artifact: artifact.id }]);
      expect(await readdir(tmpRoot)).toEqual([]);
    });

    it('says the step no longer waits, as a conflict, when it ended while the signature was made', async () => {
      server.endBeforeCompletion();
      const error = await sign().catch((e: unknown) => e);
      const [artifact] = server.created;
      expect(error).toMatchObject({
        code: 'conflict',
        details: { rule: 'signing.step-ended', stepStatus: 'completed' },
      });
      const message = (error as Error).message;
      expect(message).toContain(
        `Work request ${String(server.stepId)} no longer waits for a signature`,
      );
      expect(message).toContain(`artifact ${String(artifact?.id ?? 0)}`);
      expect(message).not.toContain('still waits');
      expect(await readdir(tmpRoot)).toEqual([]);
    });

    it('says the step still waits when the signed files could not be uploaded', async () => {
      server.refuseUploads('Quota exceeded');
      const error = await sign().catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'validation' });
      const message = (error as Error).message;
      expect(message).toMatch(/^The signed upload could not be uploaded: .*Quota exceeded/);
      expect(message).toContain(
        `Work request ${String(server.stepId)} still waits for a signature`,
      );
      expect(server.completions).toEqual([]);
      expect(server.stepStatus).toBe('running');
      expect(await readdir(tmpRoot)).toEqual([]);
    });

    it('refuses a step that no longer waits, without fetching or signing', async () => {
      const run = vi.fn<RunDebsign>();
      const first = await sign();
      expect(first.status).toBe('signed');
      const created = server.created.length;
      await expect(sign({ run })).rejects.toMatchObject({ code: 'validation' });
      expect(run).not.toHaveBeenCalled();
      expect(server.created).toHaveLength(created);
      expect(await readdir(tmpRoot)).toEqual([]);
    });
  },
);

describe.skipIf(skip)(
  'what the server sends, checked before debsign reads it',
  { timeout: 60_000 },
  () => {
    let gnupg: TestGnupg;
    let tmpRoot: string;

    beforeAll(async () => {
      gnupg = await testGnupg();
      await gnupg.addKey('Test <test@example.org>');
    }, 120_000);
    afterAll(async () => {
      await gnupg.close();
    });
    beforeEach(async () => {
      tmpRoot = await mkdtemp(join(tmpdir(), 'ddt-sign-root-'));
    });
    afterEach(async () => {
      await rm(tmpRoot, { recursive: true, force: true });
    });

    it('debsign itself runs a name a .changes lists: why the names are checked first', async () => {
      const f = debianFixtures();
      const dir = await mkdtemp(join(tmpRoot, 'plain-'));
      const canary = join(tmpRoot, 'ran');
      const changes = (await readFile(f.changes, 'utf8')).replace(
        /^Checksums-Sha1:\n/m,
        `Checksums-Sha1:\n 0 0 $(touch\${IFS}${canary}).dsc\n`,
      );
      await writeFile(join(dir, basename(f.changes)), changes);
      await writeFile(join(dir, basename(f.dsc)), await readFile(f.dsc));
      await run('debsign', ['--re-sign', basename(f.changes)], { cwd: dir, env: gnupg.env }).catch(
        () => undefined,
      );
      await expect(access(canary)).resolves.toBeUndefined();
    });

    async function attempt(files: { path: string; content: Buffer; size?: number }[]) {
      const server = await signingServer({ files });
      const client = server.client();
      const run = vi.fn<RunDebsign>(debsignRunner(gnupg.env));
      try {
        const error = await signAndComplete(client, server.stepId, {
          keys: keyLookup(gnupg.env),
          run,
          tmpRoot,
        }).catch((e: unknown) => e);
        return { error, run, server };
      } finally {
        await client.close();
        await server.close();
      }
    }

    it('refuses a .changes declared over the bound (8 GiB, 200 MB) before its first byte', async () => {
      const f = debianFixtures();
      const changes = await readFile(f.changes);
      const dsc = await readFile(f.dsc);
      for (const files of [
        // A .changes declared 8 GiB; a 200 MB one.
        [{ path: basename(f.changes), content: changes, size: 8 * 1024 ** 3 }],
        [{ path: basename(f.changes), content: changes, size: 200_000_000 }],
      ]) {
        const { error, run, server } = await attempt([
          ...files,
          { path: basename(f.dsc), content: dsc },
        ]);
        expect(error).toMatchObject({ details: { rule: 'download.too-large' } });
        expect(run).not.toHaveBeenCalled();
        // Not a byte of it was asked for.
        expect(server.fake.served.filter((s) => s.path.endsWith(basename(f.changes)))).toEqual([]);
        expect(server.created).toEqual([]);
      }
    });

    it('refuses a .changes that names a file debsign would run as a command', async () => {
      const f = debianFixtures();
      const changes = await readFile(f.changes, 'utf8');
      const canary = join(tmpRoot, 'pwned');
      // debsign takes the first `.* <name>.dsc` line of the lists into
      // `eval "$ext=\"$name\""`: run on this .changes, it creates the canary.
      const evil = '$(touch${IFS}' + canary + ').dsc';
      const hostile = changes.replace(/^Checksums-Sha1:\n/m, `Checksums-Sha1:\n 0 0 ${evil}\n`);
      const { error, run, server } = await attempt([
        { path: basename(f.changes), content: Buffer.from(hostile) },
        { path: basename(f.dsc), content: await readFile(f.dsc) },
      ]);
      expect(error).toMatchObject({
        code: 'bad-response',
        details: { rule: 'signing.listed-name' },
      });
      expect(run).not.toHaveBeenCalled();
      await expect(access(canary)).rejects.toThrow();
      expect(server.created).toEqual([]);
      expect(server.completions).toEqual([]);
      expect(await readdir(tmpRoot)).toEqual([]);
    });

    it('refuses file names that are not Debian file names, and an upload without one .changes', async () => {
      for (const name of ['-kEVIL.changes', "it's.changes", 'a b.changes']) {
        const { error, run, server } = await attempt([{ path: name, content: Buffer.from('x') }]);
        expect(error).toMatchObject({ details: { rule: 'signing.file-name' } });
        expect(run).not.toHaveBeenCalled();
        expect(server.fake.servedUnder('/debusine/')).toEqual([]);
      }
      const { error } = await attempt([{ path: 'a.dsc', content: Buffer.from('x') }]);
      expect(error).toMatchObject({ details: { rule: 'signing.changes-count' } });
      expect(await readdir(tmpRoot)).toEqual([]);
    });

    it('refuses a .changes that lists a file the unsigned upload does not hold', async () => {
      const f = debianFixtures();
      const { error, run, server } = await attempt([
        { path: basename(f.changes), content: await readFile(f.changes) },
        { path: basename(f.dsc), content: await readFile(f.dsc) },
      ]);
      expect(error).toMatchObject({ details: { rule: 'signing.listed-missing' } });
      expect(run).not.toHaveBeenCalled();
      expect(server.created).toEqual([]);
      expect(await readdir(tmpRoot)).toEqual([]);
    });
  },
);
