/**
 * Which key signing uses, as the step's page shows it before signing (signingKeyChoice)
 * and as signing then uses it (signAndComplete): the same choice, for each way debsign
 * picks a key, with the real gpg and debsign in a GnuPG home of the test's own and a fake
 * server with the step and an unsigned upload made by dpkg-buildpackage. Where debsign
 * itself would find no key, the choice names none, says what it looked for and where
 * that came from, and nothing is signed without the user choosing; the real debsign is run
 * beside it to show that it finds none either, not even gpg's default key.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  signAndComplete,
  signingKeyChoice,
  type KeyLookup,
  type SignOptions,
} from '../../src/main/signing/debsign';
import { readDebsignConfig } from '../../src/main/signing/devscripts-config';
import { gpgSecretKeys } from '../../src/main/signing/gpg-keys';
import { debsignRunner, type RunDebsign } from '../../src/main/signing/run-debsign';
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

/** The fixtures' .changes is Changed-By (and Maintainer) this user. */
const UPLOADER = 'Debusine Desktop Tests <tests@example.org>';

describe.skipIf(skip)('the key the page shows is the key that signs', { timeout: 60_000 }, () => {
  let gnupg: TestGnupg;
  let uploader: string;
  let other: string;
  let tmpRoot: string;
  let files: { path: string; content: Buffer }[];
  let server: SigningServer | undefined;

  /** The keys of the test's GnuPG home, and the devscripts files of its HOME. */
  const lookup = (): KeyLookup => ({
    secretKeys: gpgSecretKeys(gnupg.env),
    debsignConfig: () =>
      readDebsignConfig([join(gnupg.dir, 'etc-devscripts.conf'), join(gnupg.home, '.devscripts')]),
  });

  /** The unsigned upload's files, its .changes' Changed-By replaced when `changedBy` is given. */
  function upload(changedBy?: string): { path: string; content: Buffer }[] {
    return files.map((f) =>
      f.path.endsWith('.changes') && changedBy !== undefined
        ? {
            path: f.path,
            content: Buffer.from(
              f.content.toString('utf8').replace(/^Changed-By: .*$/m, `Changed-By: ${changedBy}`),
            ),
          }
        : f,
    );
  }

  /** The files the server serves, which the app uploaded as they are. */
  let servedFiles: { path: string; content: Buffer }[] = [];
  async function serve(served = upload()): Promise<SigningServer> {
    server = await signingServer({ files: served });
    servedFiles = served;
    return server;
  }

  async function choiceOf(s: SigningServer) {
    const client = s.client();
    try {
      return await signingKeyChoice(client, s.stepId, { keys: lookup(), tmpRoot });
    } finally {
      await client.close();
    }
  }

  async function signOn(s: SigningServer, options: SignOptions = {}) {
    const client = s.client();
    try {
      return await signAndComplete(client, s.stepId, {
        keys: lookup(),
        run: debsignRunner(gnupg.env),
        tmpRoot,
        uploadsMade: uploadMadeOf(servedFiles),
        ...options,
      });
    } finally {
      await client.close();
    }
  }

  /** The fingerprint of the key whose signature each file the server received carries. */
  async function signersOf(s: SigningServer): Promise<Set<string | null>> {
    const [artifact] = s.created;
    if (!artifact) throw new Error('no artifact was created');
    const out = await mkdtemp(join(gnupg.dir, 'received-'));
    const signers = new Set<string | null>();
    for (const [path, bytes] of artifact.uploaded) {
      await writeFile(join(out, path), bytes);
      signers.add(await gnupg.signer(join(out, path)));
    }
    return signers;
  }

  /** The real debsign, without -k, on a copy of an upload's signed kinds: did it sign, and who. */
  async function plainDebsign(
    served: { path: string; content: Buffer }[],
  ): Promise<{ ok: boolean; signer: string | null }> {
    const dir = await mkdtemp(join(gnupg.dir, 'plain-debsign-'));
    for (const f of served.filter((g) => /\.(changes|dsc|buildinfo)$/.test(g.path))) {
      await writeFile(join(dir, f.path), f.content);
    }
    const changes = basename(debianFixtures().changes);
    const ok = await run('debsign', ['--re-sign', changes], { cwd: dir, env: gnupg.env }).then(
      () => true,
      () => false,
    );
    return { ok, signer: await gnupg.signer(join(dir, changes)) };
  }

  beforeAll(async () => {
    gnupg = await testGnupg();
    uploader = await gnupg.addKey(UPLOADER);
    other = await gnupg.addKey('Other <other@example.org>');
    files = await fixtureUpload();
  }, 120_000);
  afterAll(async () => {
    await gnupg.close();
  });
  beforeEach(async () => {
    tmpRoot = await mkdtemp(join(tmpdir(), 'ddt-key-choice-'));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(join(gnupg.home, '.devscripts'), { force: true });
    await rm(join(gnupg.env.GNUPGHOME ?? '', 'gpg.conf'), { force: true });
    await rm(tmpRoot, { recursive: true, force: true });
  });

  it("Changed-By: the uploader's key, named with its fingerprint and why, then signs", async () => {
    const s = await serve();
    const choice = await choiceOf(s);
    expect(choice.named).toEqual([
      { fingerprint: uploader, keyId: uploader.slice(-16), userIds: [UPLOADER] },
    ]);
    expect(choice.keys.map((k) => k.fingerprint).sort()).toEqual([uploader, other].sort());
    expect(choice.reason).toBe(
      "It is your secret key for “tests@example.org”: the .changes' Changed-By (its " +
        `uploader) is “${UPLOADER}”, and DEBSIGN_KEYID is not set.`,
    );
    // Looking left nothing behind, and signed nothing.
    expect(await readdir(tmpRoot)).toEqual([]);
    expect(s.created).toEqual([]);

    const result = await signOn(s, { expected: uploader });
    expect(result).toMatchObject({
      status: 'signed',
      key: { fingerprint: uploader },
      keyReason: choice.reason,
    });
    expect(await signersOf(s)).toEqual(new Set([uploader]));
  });

  it('DEBSIGN_KEYID: the key it names, whoever the .changes names, as the real debsign', async () => {
    await writeFile(join(gnupg.home, '.devscripts'), `DEBSIGN_KEYID=${other}\n`);
    const s = await serve();
    const choice = await choiceOf(s);
    expect(choice.named.map((k) => k.fingerprint)).toEqual([other]);
    expect(choice.reason).toBe(
      `DEBSIGN_KEYID in ${join(gnupg.home, '.devscripts')} (line 1) is “${other}”, which ` +
        'names this key; debsign signs with it whoever the .changes names.',
    );
    expect(await plainDebsign(upload())).toEqual({ ok: true, signer: other });

    const result = await signOn(s, { expected: other });
    expect(result).toMatchObject({ status: 'signed', key: { fingerprint: other } });
    expect(await signersOf(s)).toEqual(new Set([other]));
  });

  it('no key for Changed-By: says which address, from where, and signs nothing unasked', async () => {
    const s = await serve(upload('Someone Else <else@example.org>'));
    const choice = await choiceOf(s);
    expect(choice.named).toEqual([]);
    // The Maintainer (the uploader's address) does not count: Changed-By is there.
    expect(choice.reason).toBe(
      "None of your secret keys is for “else@example.org”: the .changes' Changed-By (its " +
        'uploader) is “Someone Else <else@example.org>”, and DEBSIGN_KEYID is not set, so ' +
        'debsign would stop there (gpg: No secret key). Choose the key to sign with, or name ' +
        'yours in DEBSIGN_KEYID (~/.devscripts).',
    );
    const runner = vi.fn<RunDebsign>();
    const asked = await signOn(s, { run: runner });
    expect(asked).toEqual({
      status: 'choose-key',
      keys: choice.keys,
      reason: choice.reason,
    });
    expect(runner).not.toHaveBeenCalled();
    expect(s.created).toEqual([]);
    expect(s.completions).toEqual([]);
    expect(await readdir(tmpRoot)).toEqual([]);
  });

  it("gpg's default key does not sign for debsign: it stops, as the choice says", async () => {
    const served = upload('Someone Else <else@example.org>');
    const s = await serve(served);
    // gpg has a default key, the uploader's, which it signs with when given no user...
    await writeFile(join(gnupg.env.GNUPGHOME ?? '', 'gpg.conf'), `default-key ${uploader}\n`);
    const probe = join(gnupg.dir, 'probe.txt');
    await writeFile(probe, 'probe\n');
    const { stdout } = await run(
      'gpg',
      ['--batch', '--status-fd', '1', '--clearsign', '--output', `${probe}.asc`, '--yes', probe],
      { env: gnupg.env },
    );
    expect(stdout).toMatch(new RegExp(`^\\[GNUPG:\\] SIG_CREATED C .* ${uploader}$`, 'm'));
    // ...but debsign always names one (Changed-By here), and gpg has no key for it.
    expect(await plainDebsign(served)).toEqual({ ok: false, signer: null });
    const choice = await choiceOf(s);
    expect(choice.named).toEqual([]);
    expect(choice.reason).toContain('debsign would stop there');
  });

  it('DEBSIGN_KEYID naming an absent key: says its value and file, and names none', async () => {
    const absent = 'D'.repeat(40);
    await writeFile(join(gnupg.home, '.devscripts'), `# mine\nDEBSIGN_KEYID="${absent}"\n`);
    const s = await serve();
    const choice = await choiceOf(s);
    expect(choice.named).toEqual([]);
    expect(choice.reason).toBe(
      `DEBSIGN_KEYID in ${join(gnupg.home, '.devscripts')} (line 2) is “${absent}”, which ` +
        'names none of your secret keys: debsign would stop there (gpg: No secret key). ' +
        'Correct it, or choose the key to sign with.',
    );
    // Though the uploader's key is here: DEBSIGN_KEYID decides alone, as in debsign.
    await expect(signOn(s)).resolves.toMatchObject({ status: 'choose-key' });
    expect(s.created).toEqual([]);
  });

  it('stops, signing nothing, when the choice changed since the page showed it', async () => {
    const s = await serve();
    const shown = await choiceOf(s);
    expect(shown.named.map((k) => k.fingerprint)).toEqual([uploader]);
    await writeFile(join(gnupg.home, '.devscripts'), `DEBSIGN_KEYID=${other}\n`);
    const runner = vi.fn<RunDebsign>();
    await expect(signOn(s, { run: runner, expected: uploader })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining(
        `The key debsign would use is no longer the one shown: it is now ${other}`,
      ) as string,
      details: { rule: 'signing.key-changed', key: other },
    });
    expect(runner).not.toHaveBeenCalled();
    expect(s.created).toEqual([]);
    expect(await readdir(tmpRoot)).toEqual([]);
  });

  it("quotes the server's Changed-By on one line, bounded, its bidi controls marked", async () => {
    const s = await serve(upload(`Mallory \u202E${'m'.repeat(400)} <mallory@example.org>`));
    const { reason } = await choiceOf(s);
    expect(reason).toContain('“Mallory <U+202E>mmm');
    expect(reason).not.toContain('\u202E');
    const quoted = /Changed-By \(its uploader\) is (“[^”]*”)/.exec(reason)?.[1] ?? '';
    expect(quoted.length).toBeLessThanOrEqual(130);
    expect(quoted.endsWith('…”')).toBe(true);
  });
});
