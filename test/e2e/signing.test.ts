/**
 * "Sign and upload" from the step's page, all real: the web host's main runs gpg and
 * debsign with a GnuPG home of the test's own (GNUPGHOME and HOME in its environment, as a
 * user's session passes them), the page picks one of the two secret keys, and the sandbox
 * server checks and takes the signed upload for an externaldebsign step seeded in its
 * database on an upload made by dpkg-buildpackage.
 */
import { mkdtemp } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { downloadArtifactFile } from '../../src/main/artifacts/transfer/download';
import { openPage } from '../support/app';
import { ownerClient } from '../support/clients';
import { debianFixtures, have, missingDebianTools } from '../support/debian-fixtures';
import { appSession, goToTab, screenshotAndCheckA11y } from '../support/e2e';
import { testGnupg, type TestGnupg } from '../support/gnupg';
import { seedSigningStep } from '../support/seed-steps';

const TOOLS = ['gpg', 'gpgv', 'gpgconf', 'debsign'];
const runnable = missingDebianTools() === undefined && TOOLS.every(have);

describe.runIf(runnable)('signing a waiting step from its page', () => {
  const client = ownerClient('current');
  let gnupg: TestGnupg | undefined;
  let other = '';
  const session = appSession('current', {
    seed: async () => {
      gnupg = await testGnupg();
      await gnupg.addKey('Debusine Desktop Tests <tests@example.org>');
      other = await gnupg.addKey('Other Key <other@example.org>');
    },
    env: () => {
      if (!gnupg) throw new Error('no GnuPG home');
      return { GNUPGHOME: gnupg.env.GNUPGHOME ?? '', HOME: gnupg.home };
    },
    close: async () => {
      await client.close();
      await gnupg?.close();
    },
  });

  it('signs with the key chosen, uploads, and the server completes the step', async () => {
    const server = session.app.server;
    if (!server || !gnupg) throw new Error('not started');
    const fx = debianFixtures();
    const { id, unsigned } = await seedSigningStep(client, server);

    const { page, errors } = await openPage(session.browser, session.app);
    await goToTab(page, 'Work requests', /Needs me/);
    await page.getByRole('button', { name: `Sign and upload work request ${String(id)}` }).click();
    const waiting = page.getByTestId('waiting-step');
    await waiting.waitFor();
    // Two secret keys: the uploader's is the default; the test picks the other one.
    await waiting.getByLabel('Key', { exact: true }).selectOption(other);
    // The upload was made by the test, not by the app: it is shown as such, with its
    // fields and files, and signs only once the user says it was read.
    const review = waiting.getByTestId('upload-review');
    await expect(review.getAttribute('data-verdict')).resolves.toBe('not-made-here');
    await expect(review.textContent()).resolves.toContain(
      'This app did not upload hello-ddt 1.0 to this server',
    );
    await expect(review.textContent()).resolves.toContain(`artifact #${String(unsigned.id)}`);
    const button = waiting.getByRole('button', { name: 'Sign and upload' });
    await expect(button.isDisabled()).resolves.toBe(true);
    await review.scrollIntoViewIfNeeded();
    await screenshotAndCheckA11y(page, 'sign-review-light');
    await review.getByText('Read the .changes that would be signed').click();
    await review.getByRole('checkbox').check();
    await screenshotAndCheckA11y(page, 'sign-step-light');
    await button.click();
    const done = waiting.getByRole('status').filter({ hasText: 'uploaded and the step completed' });
    await done.waitFor({ timeout: 60_000 });

    expect(await client.workRequestGet(id)).toMatchObject({
      status: 'completed',
      result: 'success',
    });
    const relations = await client.relationList({ targetId: unsigned.id });
    const signedId = relations.find((r) => r.type === 'relates-to')?.artifact;
    if (signedId === undefined) throw new Error('no signed artifact relates to the unsigned one');
    await expect(done.textContent()).resolves.toContain(String(signedId));
    const signed = await client.artifactGet(signedId);
    const out = await mkdtemp(join(gnupg.dir, 'stored-'));
    for (const name of [fx.changes, fx.dsc, fx.buildinfo].map((p) => basename(p))) {
      await downloadArtifactFile(client, signed, name, join(out, name));
      expect(await gnupg.signer(join(out, name)), name).toBe(other);
    }
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
