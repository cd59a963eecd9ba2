/**
 * The text a user puts on their system to install from a repository: the archive's key
 * read far enough to show what apt will trust (its fingerprints computed from the key, and
 * compared here with gpg's own), and the `.sources`, `auth.conf` and debuginfod lines,
 * which refuse names that would write something else into those files.
 */
import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  aptSourcesText,
  authConfLine,
  debuginfodLine,
  defaultArchiveUrl,
  parseArchiveUrl,
} from '../../src/main/archives/apt-source';
import { readPublicKeyBlock } from '../../src/main/archives/openpgp-key';
import { testGnupg, type TestGnupg } from '../support/gnupg';

const run = promisify(execFile);

describe('readPublicKeyBlock', () => {
  let gnupg: TestGnupg;
  let armored = '';
  const fingerprints: string[] = [];
  beforeAll(async () => {
    gnupg = await testGnupg();
    fingerprints.push(await gnupg.addKey('Archive signing key <archive@example.org>'));
    fingerprints.push(await gnupg.addKey('Second key <second@example.org>'));
    const { stdout } = await run('gpg', ['--batch', '--armor', '--export', ...fingerprints], {
      env: gnupg.env,
    });
    armored = stdout;
  }, 60_000);
  afterAll(async () => {
    await gnupg.close();
  });

  it('finds the primary keys gpg exported, with the fingerprints gpg gives them', () => {
    const block = readPublicKeyBlock(armored);
    expect(block.fingerprints).toEqual(fingerprints);
    expect(block.armored.startsWith('-----BEGIN PGP PUBLIC KEY BLOCK-----\n')).toBe(true);
  });

  it('takes CRLF line ends and text around the block', () => {
    const block = readPublicKeyBlock(`junk\r\n${armored.replace(/\n/g, '\r\n')}\r\nmore`);
    expect(block.fingerprints).toEqual(fingerprints);
  });

  it('finds no key in an empty armour, as a new repository can serve for a while', () => {
    const empty =
      '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n=twTO\n-----END PGP PUBLIC KEY BLOCK-----\n';
    expect(readPublicKeyBlock(empty).fingerprints).toEqual([]);
  });

  it('refuses what is not a key block, a damaged one, and one too big to be a key', () => {
    expect(() => readPublicKeyBlock('<html>Not found</html>')).toThrow(/not an armoured/);
    const lines = armored.split('\n');
    // A changed byte in the body: the armour's checksum no longer matches.
    const body = lines.findIndex((l, i) => i > 1 && l.length > 40);
    const damaged = [...lines];
    const line = damaged[body] ?? '';
    damaged[body] = (line.startsWith('A') ? 'B' : 'A') + line.slice(1);
    expect(() => readPublicKeyBlock(damaged.join('\n'))).toThrow(/checksum/);
    // Cut short, without its checksum line: a packet runs past the end.
    const cut = [...lines.slice(0, body + 1), '-----END PGP PUBLIC KEY BLOCK-----'].join('\n');
    expect(() => readPublicKeyBlock(cut)).toThrow(/damaged/);
    expect(() => readPublicKeyBlock('x'.repeat(300 * 1024))).toThrow(/over 256 KiB/);
    const notBase64 = armored.replace(/\n([A-Za-z0-9+/]{10})/, '\n$1!');
    expect(() => readPublicKeyBlock(notBase64)).toThrow(/not base64/);
  });
});

describe('the .sources entry', () => {
  const key = [
    '-----BEGIN PGP PUBLIC KEY BLOCK-----',
    '',
    'mDMEaw==',
    '=abcd',
    '-----END PGP PUBLIC KEY BLOCK-----',
  ].join('\n');

  it('names the repository under the archive host, with the key inline as Debusine writes it', () => {
    expect(
      aptSourcesText({
        archiveUrl: 'https://deb.debusine.debian.net',
        scope: 'debian',
        workspace: 'developers-alice-tools',
        suite: 'sid-experiment',
        components: ['main'],
        architectures: ['all', 'amd64', 'arm64'],
        armoredKey: key,
        withSources: true,
      }),
    ).toBe(
      [
        'Types: deb deb-src',
        'URIs: https://deb.debusine.debian.net/debian/developers-alice-tools',
        'Suites: sid-experiment',
        'Components: main',
        'Architectures: amd64 arm64',
        'Signed-By:',
        ' -----BEGIN PGP PUBLIC KEY BLOCK-----',
        ' .',
        ' mDMEaw==',
        ' =abcd',
        ' -----END PGP PUBLIC KEY BLOCK-----',
        '',
      ].join('\n'),
    );
  });

  it('refuses names that would write another field or another entry', () => {
    const base = {
      archiveUrl: 'http://localhost:18016',
      scope: 'debusine',
      workspace: 'developers-x',
      suite: 'sid',
      components: ['main'],
      architectures: [],
      armoredKey: null,
      withSources: false,
    };
    for (const hostile of [
      { suite: 'sid\nSigned-By: /etc/apt/trusted.gpg' },
      { workspace: '../../etc' },
      { components: ['main contrib\n'] },
      { architectures: ['amd64\nTrusted: yes'] },
      { scope: '' },
    ]) {
      expect(() => aptSourcesText({ ...base, ...hostile })).toThrow(/cannot go into an APT source/);
    }
    expect(aptSourcesText(base)).toBe(
      'Types: deb\nURIs: http://localhost:18016/debusine/developers-x\nSuites: sid\nComponents: main\n',
    );
  });

  it('takes an archive address with a path, and refuses one with a password or another scheme', () => {
    expect(
      aptSourcesText({
        archiveUrl: 'https://mirror.example/deb/',
        scope: 's',
        workspace: 'w',
        suite: 'sid',
        components: [],
        architectures: [],
        armoredKey: null,
        withSources: false,
      }),
    ).toContain('URIs: https://mirror.example/deb/s/w\n');
    expect(() => parseArchiveUrl('https://alice:secret@deb.example')).toThrow(
      /user name or a password/,
    );
    expect(() => parseArchiveUrl('file:///etc')).toThrow(/https:\/\/ or http:\/\//);
    expect(() => parseArchiveUrl('https://deb.example/?x=1')).toThrow(/query/);
    expect(defaultArchiveUrl('https://debusine.debian.net/api')).toBe(
      'https://deb.debusine.debian.net',
    );
    // deb. before an address is no host: the API's origin is the guess, and a valid one.
    for (const api of ['http://127.0.0.1:18016/api', 'http://[::1]:8000/api']) {
      const guess = defaultArchiveUrl(api);
      expect(guess).toBe(new URL(api).origin);
      expect(parseArchiveUrl(guess).origin).toBe(guess);
    }
  });
});

describe('auth.conf and debuginfod', () => {
  it('sends the login to the repository’s host and path only', async () => {
    const line = authConfLine(
      'https://localhost:18443',
      'debusine',
      'developers-x',
      'apt-laptop',
      'k3y',
    );
    expect(line).toBe(
      'machine localhost:18443/debusine/developers-x/ login apt-laptop password k3y\n',
    );
    expect(() =>
      authConfLine('https://localhost:18443', 'debusine', 'developers-x', 'a b', 'k'),
    ).toThrow(/login cannot go into auth.conf/);
    expect(() =>
      authConfLine('https://localhost:18443', 'debusine', 'developers-x', 'a', 'k\nmachine evil'),
    ).toThrow(/password cannot go into auth.conf/);
    expect(debuginfodLine('https://deb.example', 'debian', 'w')).toBe(
      'export DEBUGINFOD_URLS="https://deb.example/debian/w"\n',
    );
    // What the shell makes of the line is the URL and nothing else.
    const dir = await import('node:os').then((os) => os.tmpdir());
    const file = join(dir, `ddt-debuginfod-${String(process.pid)}.sh`);
    await writeFile(
      file,
      `${debuginfodLine('https://deb.example', 'debian', 'w')}echo "$DEBUGINFOD_URLS"\n`,
    );
    try {
      const { stdout } = await run('sh', [file]);
      expect(stdout).toBe('https://deb.example/debian/w\n');
    } finally {
      await rm(file, { force: true });
    }
  });
});
