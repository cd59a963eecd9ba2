/**
 * A GnuPG home of a test's own (GNUPGHOME in a temporary directory, with HOME beside it so
 * that debsign reads no developer's ~/.devscripts), its keys made by gpg itself, a
 * pinentry the test controls (one that cancels, one that gives a wrong passphrase), and
 * gpgv to tell which key signed a file. Its gpg-agent is stopped when it closes.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TestGnupg {
  /** The temporary directory: GNUPGHOME is `gnupg` in it, HOME is `home`. */
  dir: string;
  home: string;
  env: NodeJS.ProcessEnv;
  /** Makes a key for `uid` (no passphrase unless given); its fingerprint. */
  addKey(uid: string, passphrase?: string): Promise<string>;
  /**
   * Removes keys a test added, and the pinentry it set, so that the next test sees the
   * keys it had before.
   */
  deleteKeys(fingerprints: string[]): Promise<void>;
  /** Makes a key for `uid` (as addKey) for the time `use` runs with it, then deletes it. */
  withKey<T>(
    uid: string,
    use: (fingerprint: string) => Promise<T>,
    passphrase?: string,
  ): Promise<T>;
  /** What the agent's pinentry does when asked for a passphrase. */
  pinentry(mode: 'cancel' | 'wrong'): Promise<void>;
  /** The fingerprint of the primary key whose valid signature `file` carries, or null. */
  signer(file: string): Promise<string | null>;
  close(): Promise<void>;
}

/** An Assuan pinentry: answers every command OK, and GETPIN as `mode` says. */
function pinentryScript(mode: 'cancel' | 'wrong'): string {
  const getpin =
    mode === 'cancel'
      ? 'echo "ERR 83886179 Operation cancelled <Pinentry>"'
      : 'echo "D not-the-passphrase"; echo "OK"';
  return `#!/bin/sh
echo "OK Pleased to meet you"
while read -r line; do
  case "$line" in
    GETPIN*) ${getpin};;
    BYE*) echo "OK closing connection"; exit 0;;
    *) echo "OK";;
  esac
done
`;
}

export async function testGnupg(): Promise<TestGnupg> {
  const dir = await mkdtemp(join(tmpdir(), 'ddt-gpg-'));
  const gnupg = join(dir, 'gnupg');
  const home = join(dir, 'home');
  await mkdir(gnupg, { mode: 0o700 });
  await mkdir(home);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GNUPGHOME: gnupg,
    HOME: home,
    // The agent of the developer's session must not be reached, nor their display's pinentry.
    GPG_AGENT_INFO: '',
    DISPLAY: '',
    WAYLAND_DISPLAY: '',
    LC_ALL: 'C.UTF-8',
  };
  const gpg = (args: string[]) => run('gpg', ['--batch', ...args], { env });
  const publicRing = join(dir, 'public.gpg');
  const self: TestGnupg = {
    dir,
    home,
    env,
    async addKey(uid, passphrase = '') {
      await gpg([
        '--pinentry-mode',
        'loopback',
        '--passphrase',
        passphrase,
        '--quick-gen-key',
        uid,
        'default',
        'default',
        'never',
      ]);
      const { stdout } = await gpg(['--with-colons', '--list-secret-keys', uid]);
      const fpr = /^fpr:(?::[^:]*){7}:([0-9A-F]+):/m.exec(stdout)?.[1];
      if (!fpr) throw new Error(`gpg made no key for ${uid}`);
      return fpr;
    },
    async deleteKeys(fingerprints) {
      await gpg(['--yes', '--delete-secret-and-public-keys', ...fingerprints]);
      await rm(join(gnupg, 'gpg-agent.conf'), { force: true });
    },
    async withKey(uid, use, passphrase) {
      const fingerprint = await self.addKey(uid, passphrase);
      try {
        return await use(fingerprint);
      } finally {
        await self.deleteKeys([fingerprint]);
      }
    },
    async pinentry(mode) {
      const script = join(dir, `pinentry-${mode}`);
      await writeFile(script, pinentryScript(mode));
      await chmod(script, 0o755);
      await writeFile(join(gnupg, 'gpg-agent.conf'), `pinentry-program ${script}\n`);
      await run('gpgconf', ['--kill', 'gpg-agent'], { env });
    },
    async signer(file) {
      await gpg(['--export', '--output', publicRing, '--yes']);
      try {
        const result = await run('gpgv', ['--status-fd', '1', '--keyring', publicRing, file], {
          env,
        });
        const valid = /^\[GNUPG:\] VALIDSIG (?:\S+ ){9}([0-9A-F]+)$/m.exec(result.stdout);
        return valid?.[1] ?? null;
      } catch {
        return null;
      }
    },
    async close() {
      await run('gpgconf', ['--kill', 'gpg-agent'], { env }).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
  return self;
}
