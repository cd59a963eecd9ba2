/**
 * What the repository tests share: the sandbox's repository set-up (or a blank one where
 * there is none, for the tests that are then skipped), a suite's first publication with
 * nothing in it, the removal of what they made, and the archive address set in the app.
 */
import { spawnSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { DebusineClient } from '../../src/main/api/client';
import { waitForCompletion } from './clients';
import type { Repositories, TestServer } from './sandbox';

/** Stands in where the server has no repositories: the tests that need them are skipped. */
export const NO_REPOSITORIES: Repositories = {
  templates: { experiment: '', kept: '' },
  baseWorkspace: '',
  archiveUrl: '',
  archiveTlsUrl: '',
  tlsApiUrl: '',
  caCertificate: '',
  signingWorker: '',
};

/**
 * Publishes the suites of `workspace` as they are: their indexes made and signed (and the
 * archive's key made the first time). An empty suite is not stale (nothing in it changed),
 * so the update is forced, as a first publication makes them.
 */
export async function publishAsTheyAre(client: DebusineClient, workspace: string): Promise<void> {
  const update = await client.workflowCreateByTask({
    task_name: 'update_suites',
    workspace,
    task_data: { force_basic_indexes: true },
  });
  expect(await waitForCompletion(client, update.id, 180_000)).toMatchObject({
    result: 'success',
  });
}

/**
 * Removes a workspace as the server does when an experiment expires (`debusine-admin
 * workspace delete`), so that the repositories the tests make do not pile up in a sandbox
 * that lives from run to run. A workspace already gone is no error.
 */
export function deleteWorkspace(server: TestServer, workspace: string): void {
  const removed = spawnSync(
    'chroot',
    [
      '--userspec=debusine-server:debusine-server',
      server.root ?? '/nonexistent',
      ...['env', '-i', 'PATH=/usr/bin:/bin', 'HOME=/var/lib/debusine/server', 'LANG=C.UTF-8'],
      ...['debusine-admin', 'workspace', 'delete', '--yes', '--force'],
      `${server.scope}/${workspace}`,
    ],
    { encoding: 'utf8', timeout: 120_000 },
  );
  if (removed.status !== 0) {
    throw new Error(`${workspace} was not deleted: ${removed.stdout}${removed.stderr}`);
  }
}

/**
 * Sets the server's archive address on the open repository's apt tab (the API does not say
 * it), and waits until the page shows it.
 */
export async function setArchiveAddress(page: Page, url: string): Promise<void> {
  await page.getByRole('button', { name: 'Change' }).click();
  const address = page.getByRole('form', { name: 'Archive address' });
  await address.getByRole('textbox').fill(url);
  await address.getByRole('button', { name: 'Save' }).click();
  await page.getByText(`Served at ${url}`).waitFor();
}
