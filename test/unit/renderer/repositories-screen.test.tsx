// @vitest-environment happy-dom
/**
 * The Repositories area: the list of the app's repositories, the form that makes one from a
 * template (the new workspace's name shown as it will be), a repository's suites and what apt
 * needs (the key's fingerprint, the `.sources` text; nothing to trust before the first
 * publication, or when the server hands over another key), a package's removal after a
 * confirmation, and a viewer token whose auth.conf line is shown once.
 */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveText } from '@renderer/components/save-text-button';
import type { AptSetup, RepositoryEntry } from '@shared/contract';
import { KEY_WAIT_MS } from '@renderer/queries/repositories';
import { RepositoriesArea } from '@renderer/screens/repositories/repositories-screen';
import type { FakeHandlers } from './support/fake-bridge';
import { WithServer } from './support/with-server';

afterEach(cleanup);

const READY: RepositoryEntry = {
  workspace: 'developers-alice-tools',
  kind: 'experiment',
  public: true,
  addedAt: '2026-11-29T01:00:00Z',
  state: 'ready',
  workflowId: null,
  message: null,
};

const SOURCES =
  'Types: deb\nURIs: https://deb.example/debian/developers-alice-tools\nSuites: sid\nComponents: main\nSigned-By:\n -----BEGIN PGP PUBLIC KEY BLOCK-----\n .\n mDMEaw==\n -----END PGP PUBLIC KEY BLOCK-----\n';

function apt(overrides: Partial<AptSetup> = {}): AptSetup {
  return {
    archiveUrl: 'https://deb.example',
    archiveUrlIsDefault: true,
    repositoryUri: 'https://deb.example/debian/developers-alice-tools',
    archiveProblem: null,
    keyState: 'present',
    suiteHasPackages: true,
    keyFingerprints: ['F027EFE0831DB70C2ABAA89F35B71008D7E7810F'],
    sources: SOURCES,
    fileName: 'developers-alice-tools-sid.sources',
    debuginfod: 'export DEBUGINFOD_URLS="https://deb.example/debian/developers-alice-tools"\n',
    private: false,
    ...overrides,
  };
}

function handlers(extra: FakeHandlers = {}): FakeHandlers {
  return {
    'repositories.list': () => [READY],
    'repositories.templates': () => [
      {
        workspace: 'developers',
        name: 'create-experiment',
        kind: 'experiment',
        expirationDays: 60,
        prefix: 'developers',
      },
      {
        workspace: 'developers',
        name: 'create-repository',
        kind: 'kept',
        expirationDays: null,
        prefix: 'developers',
      },
    ],
    'repositories.suites': () => [
      {
        name: 'sid',
        components: ['main'],
        architectures: ['amd64'],
        publishTemplate: 'publish-to-sid',
      },
    ],
    'repositories.aptSetup': () => apt(),
    'repositories.tokens': () => [],
    'repositories.packages': () => [
      {
        name: 'hello_2.10-3',
        kind: 'source',
        package: 'hello',
        version: '2.10-3',
        architecture: null,
        component: 'main',
        section: 'devel',
      },
    ],
    ...extra,
  };
}

/** WithServer's bridge, with the calls made recorded. */
function renderArea(h: FakeHandlers) {
  const calls: { channel: string; args: unknown }[] = [];
  const recorded: FakeHandlers = {};
  for (const [channel, handler] of Object.entries(h)) {
    (recorded as Record<string, unknown>)[channel] = (args: unknown) => {
      calls.push({ channel, args });
      return (handler as (a: unknown) => unknown)(args);
    };
  }
  render(
    <WithServer handlers={recorded}>
      <RepositoriesArea />
    </WithServer>,
  );
  return calls;
}

describe('the Repositories area', () => {
  it('makes a repository from the template chosen, naming the workspace it will be', async () => {
    const made: RepositoryEntry[] = [];
    const calls = renderArea(
      handlers({
        'repositories.list': () => [...made, READY],
        'repositories.create': (args) => {
          const entry: RepositoryEntry = {
            ...READY,
            workspace: `developers-${args.suffix}`,
            state: 'creating',
            workflowId: 77,
          };
          made.push(entry);
          return entry;
        },
      }),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'New repository' }));
    const form = await screen.findByRole('form', { name: 'New repository' });
    const kind = await within(form).findByRole('combobox', { name: 'Kind' });
    await within(kind).findByRole('option', { name: /create-repository \(kept\)/ });
    fireEvent.change(kind, { target: { value: 'create-repository' } });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Name' }), {
      target: { value: 'alice-backports' },
    });
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Public' }));
    expect(within(form).getByText('developers-alice-backports')).toBeTruthy();
    expect(within(form).getByText(/Only you, and those you give a viewer token/)).toBeTruthy();
    fireEvent.click(within(form).getByRole('button', { name: 'Make the repository' }));
    await screen.findByText(/Being made by workflow 77/);
    expect(calls.find((c) => c.channel === 'repositories.create')?.args).toEqual({
      workspace: 'developers',
      template: 'create-repository',
      suffix: 'alice-backports',
      public: false,
    });
  });

  it('shows what apt needs for a suite: the key’s fingerprint and the .sources text', async () => {
    renderArea(handlers());
    fireEvent.click(await screen.findByRole('button', { name: /^developers-alice-tools added/ }));
    const source = await screen.findByLabelText('APT source');
    expect(source.textContent).toBe(SOURCES);
    expect(screen.getByText('F027 EFE0 831D B70C 2ABA A89F 35B7 1008 D7E7 810F')).toBeTruthy();
    expect(
      screen.getByText('/etc/apt/sources.list.d/developers-alice-tools-sid.sources'),
    ).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Copy' }).length).toBeGreaterThanOrEqual(2);
  });

  it('offers nothing to trust before the first publication, nor when the key is not the archive’s', async () => {
    let answer = apt({
      keyState: 'not-yet',
      sources: null,
      keyFingerprints: [],
      suiteHasPackages: false,
    });
    renderArea(handlers({ 'repositories.aptSetup': () => answer }));
    fireEvent.click(await screen.findByRole('button', { name: /^developers-alice-tools added/ }));
    expect((await screen.findByRole('status', { name: 'Signing key' })).textContent).toMatch(
      /Nothing is published to sid yet/,
    );
    expect(screen.queryByLabelText('APT source')).toBeNull();
    cleanup();
    answer = apt({ keyState: 'mismatch', sources: null, keyFingerprints: [] });
    renderArea(handlers({ 'repositories.aptSetup': () => answer }));
    fireEvent.click(await screen.findByRole('button', { name: /^developers-alice-tools added/ }));
    await screen.findByText(/did not hand over the key it says the archive signs with/);
    expect(screen.queryByLabelText('APT source')).toBeNull();
  });

  it('says whether a missing key is not due yet or late, and stops asking after a while', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let hasPackages = false;
      const calls = renderArea(
        handlers({
          'repositories.aptSetup': () =>
            apt({
              keyState: 'not-yet',
              sources: null,
              keyFingerprints: [],
              suiteHasPackages: hasPackages,
            }),
        }),
      );
      fireEvent.click(await screen.findByRole('button', { name: /^developers-alice-tools added/ }));
      const wait = await screen.findByRole('status', { name: 'Signing key' });
      expect(wait.textContent).toMatch(/Nothing is published to sid yet/);
      const asked = () => calls.filter((c) => c.channel === 'repositories.aptSetup').length;
      // Read again while it waits: the publication may be on its way.
      hasPackages = true;
      await vi.advanceTimersByTimeAsync(60_000);
      expect(asked()).toBeGreaterThanOrEqual(4);
      await vi.waitFor(() => {
        expect(wait.textContent).toMatch(/sid holds packages, yet the archive has no signing key/);
      });
      // Then it stops, says so, and asks nothing more until told.
      await vi.advanceTimersByTimeAsync(KEY_WAIT_MS);
      await within(wait).findByText(/Stopped checking after 15 minutes/);
      const before = asked();
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      expect(asked()).toBe(before);
      fireEvent.click(within(wait).getByRole('button', { name: 'Check again' }));
      await vi.advanceTimersByTimeAsync(30_000);
      expect(asked()).toBeGreaterThan(before + 1);
      expect(within(wait).queryByText(/Stopped checking/)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('names the archive host that does not answer, and why', async () => {
    renderArea(
      handlers({
        'repositories.aptSetup': () =>
          apt({ archiveProblem: 'connection refused: nothing listens there' }),
      }),
    );
    fireEvent.click(await screen.findByRole('button', { name: /^developers-alice-tools added/ }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The archive does not answer');
    expect(alert.textContent).toContain('deb.example: connection refused: nothing listens there');
    // What apt needs is still there: the address may be what the user changes next.
    expect(screen.getByLabelText('APT source').textContent).toBe(SOURCES);
  });

  it('removes a package only once the removal is confirmed', async () => {
    const calls = renderArea(handlers({ 'repositories.removePackage': () => undefined }));
    fireEvent.click(await screen.findByRole('button', { name: /^developers-alice-tools added/ }));
    fireEvent.click(await screen.findByRole('tab', { name: 'Packages' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Remove hello_2.10-3' }));
    expect(calls.some((c) => c.channel === 'repositories.removePackage')).toBe(false);
    const dialog = await screen.findByRole('dialog', { name: 'Remove hello_2.10-3?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await screen.findByRole('tab', { name: 'Packages' });
    expect(calls.find((c) => c.channel === 'repositories.removePackage')?.args).toEqual({
      workspace: READY.workspace,
      suite: 'sid',
      name: 'hello_2.10-3',
    });
  });

  it('copies or moves a source package to a suite of another repository, with its binaries', async () => {
    const calls = renderArea(
      handlers({
        'repositories.targets': () => [
          { workspace: READY.workspace, suite: 'sid', template: 'publish-to-sid' },
          { workspace: 'developers-alice-private', suite: 'sid', template: 'publish-to-sid' },
          { workspace: READY.workspace, suite: 'trixie', template: 'publish-to-trixie' },
        ],
        'repositories.copyPackage': () => ({ id: 4242 }) as never,
      }),
    );
    fireEvent.click(await screen.findByRole('button', { name: /^developers-alice-tools added/ }));
    fireEvent.click(await screen.findByRole('tab', { name: 'Packages' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Copy or move hello_2.10-3' }));
    const form = await screen.findByRole('form', { name: 'Copy or move hello 2.10-3' });
    const to = await within(form).findByRole('combobox', { name: 'To' });
    // Not the suite it is in.
    expect(
      within(to)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['sid in developers-alice-private', 'trixie in developers-alice-tools']);
    fireEvent.change(to, { target: { value: 'developers-alice-private/sid' } });
    fireEvent.click(within(form).getByRole('checkbox', { name: /^Move/ }));
    fireEvent.click(within(form).getByRole('button', { name: 'Move' }));
    await within(form).findByText(/Moving: workflow 4242/);
    expect(calls.find((c) => c.channel === 'repositories.copyPackage')?.args).toEqual({
      from: { workspace: READY.workspace, suite: 'sid' },
      to: { workspace: 'developers-alice-private', suite: 'sid' },
      source: 'hello',
      version: '2.10-3',
      move: true,
      unembargo: false,
    });
  });

  it('writes the repository’s dput-ng profile and says how dput publishes with it', async () => {
    const calls = renderArea(
      handlers({
        'repositories.dputProfile': () => ({
          name: 'debusine.example-developers-alice-tools',
          file: '/home/alice/.dput.d/profiles/debusine.example-developers-alice-tools.json',
          suites: ['sid'],
        }),
      }),
    );
    fireEvent.click(await screen.findByRole('button', { name: /^developers-alice-tools added/ }));
    fireEvent.click(await screen.findByRole('button', { name: 'Write the dput-ng profile' }));
    const status = await screen.findByRole('status', { name: 'dput-ng profile' });
    expect(status.textContent).toContain(
      'It publishes to sid, whatever the .changes’ Distribution.',
    );
    expect(within(status).getByLabelText('dput command').textContent).toBe(
      'dput debusine.example-developers-alice-tools hello_2.10-3_source.changes',
    );
    expect(calls.find((c) => c.channel === 'repositories.dputProfile')?.args).toEqual({
      workspace: READY.workspace,
    });
  });

  it('shows a granted token’s auth.conf line once', async () => {
    const line =
      'machine deb.example/debian/developers-alice-tools/ login apt-laptop password 0123456789abcdef0123\n';
    renderArea(
      handlers({
        'repositories.grantToken': () => ({
          tokenHash: 'a'.repeat(64),
          username: 'apt-laptop',
          comment: 'laptop',
          role: 'viewer',
          key: '0123456789abcdef0123',
          authConf: line,
        }),
      }),
    );
    fireEvent.click(await screen.findByRole('button', { name: /^developers-alice-tools added/ }));
    const form = await screen.findByRole('form', { name: 'Grant a viewer token' });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Login name' }), {
      target: { value: 'apt-laptop' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Grant' }));
    const shown = await screen.findByText(line.trim());
    expect(shown).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByText(line.trim())).toBeNull();
  });
});

describe('saveText', () => {
  it('offers the text as a download under a plain file name, whatever name it was given', () => {
    const clicked: { download: string; href: string }[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push({ download: this.download, href: this.href });
    });
    try {
      saveText('../../etc/apt/sources.list', 'Types: deb\n');
      saveText('.hidden', 'x');
      saveText('', 'x');
    } finally {
      click.mockRestore();
    }
    expect(clicked.map((c) => c.download)).toEqual([
      '_.._etc_apt_sources.list',
      'hidden',
      'download.txt',
    ]);
    expect(clicked.every((c) => c.href.startsWith('blob:'))).toBe(true);
    // The links are gone from the page once used.
    expect(document.querySelectorAll('a[download]')).toHaveLength(0);
  });
});
