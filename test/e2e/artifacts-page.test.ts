import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DebusineClient } from '../../src/main/api/client';
import { createBinaryPackage, createSourcePackageFromDsc } from '../../src/main/artifacts';
import { uploadArtifact } from '../../src/main/artifacts/transfer/upload-engine';
import { openPage } from '../support/app';
import { screenshot } from '../support/browser';
import { clientFor } from '../support/clients';
import {
  debianFixtures,
  missingDebianTools,
  type DebianFixtures,
} from '../support/debian-fixtures';
import { hasServer, testServer } from '../support/sandbox';
import { appSession, screenshotAndCheckA11y } from '../support/e2e';

// The artifact page against artifacts the server really has: a source package and a binary
// package built using it (seeded through main's own API client, looked up through the UI).
describe.runIf(hasServer('current') && missingDebianTools() === undefined)(
  'the artifact page',
  () => {
    const server = testServer('current');
    let client: DebusineClient;
    let fx: DebianFixtures;
    let sourceId: number;
    let binaryId: number;

    const session = appSession('current', {
      seed: async () => {
        fx = debianFixtures();
        client = clientFor(server);
        const workspace = server.workspaces.default;
        sourceId = (
          await uploadArtifact(client, await createSourcePackageFromDsc(fx.dsc), { workspace })
        ).id;
        binaryId = (
          await uploadArtifact(client, await createBinaryPackage(fx.debs[0] ?? ''), { workspace })
        ).id;
        await client.relationCreate({ artifact: binaryId, target: sourceId, type: 'built-using' });
      },
      close: () => client.close(),
    });

    it.each(['light', 'dark'] as const)(
      'looks an artifact up by its web URL and shows files, relations and data (%s)',
      async (scheme) => {
        const { page, errors } = await openPage(session.browser, session.app, scheme);
        await page
          .getByRole('navigation', { name: 'Areas' })
          .getByRole('button', { name: 'Artifacts' })
          .click();
        await page.getByRole('heading', { name: 'Open an artifact' }).waitFor();
        await screenshotAndCheckA11y(page, `artifacts-empty-${scheme}`);

        const lookup = page.getByRole('search').getByLabel('Artifact id or URL');
        await lookup.fill(`${server.webUrl}/${server.scope}/System/artifact/${String(binaryId)}/`);
        await lookup.press('Enter');
        await page.getByRole('heading', { name: /debian:binary-package/ }).waitFor();
        const files = page.getByTestId('artifact-file');
        await expect(files.count()).resolves.toBe(1);
        await expect(files.first().textContent()).resolves.toContain(basename(fx.debs[0] ?? ''));
        const relations = page.getByTestId('relations-list');
        await relations.waitFor();
        await expect(relations.textContent()).resolves.toContain('built-using');
        await expect(relations.textContent()).resolves.toContain(`#${String(sourceId)}`);
        await expect(
          page
            .getByText(`debusine artifact download --target-directory . ${String(binaryId)}`)
            .count(),
        ).resolves.toBe(1);
        await screenshotAndCheckA11y(page, `artifact-${scheme}`);

        // Follow the relation to the source package, and download it as a tarball.
        await relations.getByRole('button', { name: `#${String(sourceId)}` }).click();
        await page.getByRole('heading', { name: /debian:source-package/ }).waitFor();
        await page.getByTestId('relations-list').getByText('→ this artifact').waitFor();
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name: 'Download .tar.gz' }).click(),
        ]);
        const bytes = readFileSync(await download.path());
        expect(bytes.subarray(0, 2).toString('hex')).toBe('1f8b');

        // The command palette opens an artifact by its id too.
        await page.keyboard.press('Control+K');
        await page.getByRole('dialog').getByRole('combobox').fill(String(binaryId));
        await page.keyboard.press('Enter');
        await page
          .getByRole('heading', {
            name: new RegExp(`^#${String(binaryId)} debian:binary-package$`),
          })
          .waitFor();

        // A wrong id says what happened and what to do.
        await lookup.fill('999999999');
        await lookup.press('Enter');
        await page.getByRole('alert').filter({ hasText: 'Not found' }).waitFor();
        await screenshot(page, `artifact-not-found-${scheme}`);
        expect(errors).toEqual([]);
        await page.context().close();
      },
    );
  },
);
