/**
 * What the user's key signs is what the user uploaded: a fake Debusine that answers the
 * signing step dishonestly, the real gpg and debsign in a GnuPG home of the test's own,
 * and the app's record of the upload it made of the same files. For each lie, debsign
 * never runs (counted around the real one), and the server receives no artifact and no
 * completion; where the upload differs but the step is honest, signing goes ahead once
 * the user confirmed exactly that review.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  keyLookup,
  signAndComplete,
  signingKeyChoice,
  type SignOptions,
} from '../../src/main/signing/debsign';
import { debsignRunner, type RunDebsign } from '../../src/main/signing/run-debsign';
import type { UploadMade } from '../../src/main/signing/uploads-made';
import { DebusineError } from '../../src/shared/errors';
import { have, missingDebianTools } from '../support/debian-fixtures';
import { sha256 } from '../support/fake-debusine';
import { testGnupg, type TestGnupg } from '../support/gnupg';
import {
  fixtureUpload,
  signingServer,
  uploadMadeOf,
  type SigningServer,
  type SigningServerLies,
} from '../support/signing-server';

const TOOLS = ['gpg', 'gpgv', 'gpgconf', 'debsign'];
const skip =
  missingDebianTools() ??
  (TOOLS.every(have) ? undefined : `needs ${TOOLS.join(', ')} (apt-get install devscripts gpg)`);

type Files = { path: string; content: Buffer }[];

describe.skipIf(skip)(
  'what signing signs: the upload made here, or one read and confirmed',
  { timeout: 60_000 },
  () => {
    let gnupg: TestGnupg;
    let tmpRoot: string;
    let files: Files;
    let server: SigningServer | undefined;
    /** How often the real debsign ran. */
    let debsignRuns = 0;
    let counted: RunDebsign;

    beforeAll(async () => {
      gnupg = await testGnupg();
      await gnupg.addKey('Debusine Desktop Tests <tests@example.org>');
      files = await fixtureUpload();
      const real = debsignRunner(gnupg.env);
      counted = (args) => {
        debsignRuns += 1;
        return real(args);
      };
    }, 120_000);
    afterAll(async () => {
      await gnupg.close();
    });
    beforeEach(async () => {
      debsignRuns = 0;
      tmpRoot = await mkdtemp(join(tmpdir(), 'ddt-sign-review-'));
    });
    afterEach(async () => {
      await server?.close();
      server = undefined;
      await rm(tmpRoot, { recursive: true, force: true });
    });

    async function serve(served: Files = files, lies: SigningServerLies = {}) {
      server = await signingServer({ files: served, lies });
      return server;
    }

    function options(made: SignOptions['uploadsMade'], more: SignOptions = {}): SignOptions {
      return { keys: keyLookup(gnupg.env), run: counted, tmpRoot, uploadsMade: made, ...more };
    }

    async function sign(
      s: SigningServer,
      made: SignOptions['uploadsMade'],
      more: SignOptions = {},
    ) {
      const client = s.client();
      try {
        return await signAndComplete(client, s.stepId, options(made, more));
      } finally {
        await client.close();
      }
    }

    async function review(s: SigningServer, made: SignOptions['uploadsMade']) {
      const client = s.client();
      try {
        return (await signingKeyChoice(client, s.stepId, options(made))).review;
      } finally {
        await client.close();
      }
    }

    /** No signature exists: debsign never ran, and the server received nothing. */
    function expectNothingSigned(s: SigningServer): void {
      expect(debsignRuns).toBe(0);
      expect(s.created).toEqual([]);
      expect(s.completions).toEqual([]);
      expect(s.stepStatus).toBe('running');
    }

    const fixtureName = (kind: 'dsc' | 'tar') =>
      files.find((f) => (kind === 'dsc' ? f.path.endsWith('.dsc') : /\.tar\.\w+$/.test(f.path)))
        ?.path ?? '';

    it('signs the upload made here without a question, and says when it was made', async () => {
      const s = await serve();
      const made = uploadMadeOf(files);
      const shown = await review(s, made);
      expect(shown.verdict).toBe('same');
      expect(shown.summary).toBe(
        'This is the upload you made from this machine on 2026-11-20 10:00 UTC (artifact 300).',
      );
      expect(shown.differences).toEqual([]);
      expect(shown.artifactId).toBe(s.unsignedId);
      expect(shown.files.map((f) => [f.name, f.state])).toContainEqual([
        fixtureName('tar'),
        'same',
      ]);
      // The exact .changes to be signed, to read.
      const changes = files.find((f) => f.path.endsWith('.changes'));
      expect(shown.changes).toEqual({
        name: changes?.path,
        text: changes?.content.toString('utf8'),
        truncated: false,
      });
      const result = await sign(s, made);
      expect(result.status).toBe('signed');
      expect(debsignRuns).toBe(1);
      expect(s.stepStatus).toBe('completed');
    });

    const differing: [string, (m: UploadMade) => void, RegExp][] = [
      [
        'another source package',
        (m) => (m.source = 'other-package'),
        /did not upload hello-ddt 1\.0/,
      ],
      [
        'another version',
        (m) => (m.version = '0.9'),
        /Version: you uploaded “0\.9”, this upload has “1\.0”/,
      ],
      [
        'another Distribution',
        (m) => (m.distribution = 'bookworm-security'),
        /Distribution: you uploaded “bookworm-security”, this upload has “unstable”/,
      ],
      [
        'a .dsc that lists other contents',
        (m) => {
          m.files[fixtureName('tar')] = sha256('other contents');
          m.files[fixtureName('dsc')] = sha256('another dsc');
        },
        /other contents than the file you uploaded/,
      ],
    ];

    it.each(differing)(
      'signs nothing without a confirmation when the server names %s, shows what differs, then signs once confirmed',
      async (_what, change, difference) => {
        const s = await serve();
        const made = uploadMadeOf(files, change);
        const result = await sign(s, made);
        if (result.status !== 'review') throw new Error(`expected a review, got ${result.status}`);
        expect(result.review.verdict).not.toBe('same');
        expect([result.review.summary, ...result.review.differences].join('\n')).toMatch(
          difference,
        );
        expectNothingSigned(s);
        // A confirmation of another review (what the page read before the server changed it)
        // signs nothing either.
        const stale = await sign(s, made, { reviewed: 'f'.repeat(64) });
        expect(stale).toMatchObject({
          status: 'review',
          reason: expect.stringContaining('not the one you read') as string,
        });
        expectNothingSigned(s);
        // The user read this review and confirmed it: it signs.
        const signed = await sign(s, made, { reviewed: result.review.digest });
        expect(signed.status).toBe('signed');
        expect(debsignRuns).toBe(1);
      },
    );

    it('signs a step that names its upload by a lookup resolving to the artifact signed', async () => {
      const s = await serve(files, {
        taskDataUnsigned: 'internal@collections/name:package-upload-source',
      });
      const result = await sign(s, uploadMadeOf(files));
      expect(result.status).toBe('signed');
      const asked = s.fake.served.filter((r) => r.path === '/api/1.0/lookup/single/');
      expect(asked).toHaveLength(1);
    });

    it('shows a tarball the .dsc lists and the upload does not hold, and signs nothing', async () => {
      const tar = fixtureName('tar');
      // The .changes does not list the tarball (as for a new revision), nor does the upload
      // hold it, while its .dsc lists it.
      const served = files
        .filter((f) => f.path !== tar)
        .map((f) =>
          f.path.endsWith('.changes')
            ? {
                path: f.path,
                content: Buffer.from(
                  f.content
                    .toString('utf8')
                    .split('\n')
                    .filter((line) => !line.endsWith(` ${tar}`))
                    .join('\n'),
                ),
              }
            : f,
        );
      const s = await serve(served);
      const result = await sign(s, uploadMadeOf(files));
      if (result.status !== 'review') throw new Error(`expected a review, got ${result.status}`);
      expect(result.review.verdict).toBe('differs');
      expect(result.review.files).toContainEqual(
        expect.objectContaining({ name: tar, state: 'not-in-this-upload', listedBy: ['.dsc'] }),
      );
      expect(result.review.differences).toContain(
        `${tar}: the .dsc lists it, but the upload does not hold it.`,
      );
      expectNothingSigned(s);
    });

    const refusals: [string, SigningServerLies, string, RegExp][] = [
      [
        'a step whose task data names another artifact than its dynamic data',
        { taskDataUnsigned: 777 },
        'signing.unsigned-mismatch',
        /names two uploads to sign: artifact 777 in its task data and artifact 500/,
      ],
      [
        'a step whose task data names by lookup another artifact than its dynamic data',
        {
          taskDataUnsigned: 'internal@collections/name:package-upload-source',
          lookupResolvesTo: 778,
        },
        'signing.unsigned-mismatch',
        /"internal@collections\/name:package-upload-source" is artifact 778, and its dynamic data names artifact 500/,
      ],
      [
        'an unsigned artifact that is not an upload',
        { category: 'debusine:signing-input' },
        'signing.not-upload',
        /is a "debusine:signing-input", not an upload/,
      ],
      [
        "an upload in another workspace than the workflow's",
        { artifactWorkspace: 'someone-private' },
        'signing.other-workspace',
        /is in workspace "someone-private", not in the workflow's \("Debian"\)/,
      ],
      [
        "another user's step",
        { anotherUsersStep: true },
        'signing.not-yours',
        /only the user who started the workflow/,
      ],
    ];

    it.each(refusals)('refuses %s before any signature', async (_what, lies, rule, message) => {
      const s = await serve(files, lies);
      const made = uploadMadeOf(files);
      const error = await sign(s, made).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DebusineError);
      expect((error as DebusineError).details.rule).toBe(rule);
      expect((error as DebusineError).message).toMatch(message);
      expect((error as DebusineError).message).toContain('nothing was signed');
      expectNothingSigned(s);
      // Even with a confirmation of the upload as it is: nothing a user confirms makes
      // these signable. (Where the step cannot be read for a review, any digest stands in.)
      const digest = await review(s, made).then(
        (r) => r.digest,
        () => 'a'.repeat(64),
      );
      const confirmed = await sign(s, made, { reviewed: digest }).catch((e: unknown) => e);
      expect(confirmed).toBeInstanceOf(DebusineError);
      expectNothingSigned(s);
    });

    it('refuses a .dsc whose contents are not what the .changes lists, before any signature', async () => {
      const dsc = fixtureName('dsc');
      const served = files.map((f) =>
        f.path === dsc
          ? { path: f.path, content: Buffer.concat([f.content, Buffer.from('\n')]) }
          : f,
      );
      const s = await serve(served);
      const error = await sign(s, uploadMadeOf(files)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DebusineError);
      expect((error as DebusineError).details.rule).toBe('signing.listed-checksum');
      expectNothingSigned(s);
    });
  },
);
