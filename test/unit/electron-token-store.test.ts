/**
 * The desktop app's token store on Linux, against a fake safeStorage that does what
 * Electron 45 does (test/support/fake-electron.ts): the asynchronous API is available with
 * or without a keyring, its ciphertext names the key that made it, and the desktop's name
 * decides only the synchronous API's guess. The store calls secure what the ciphertext
 * shows, never the guess.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeElectron, mockedElectron, type FakeElectron } from '../support/fake-electron';
import { DebusineError } from '../../src/shared/errors';

const fake = mockedElectron;
vi.mock('electron', async () => (await import('../support/fake-electron')).mockedElectronModule());

const { SafeStorageTokenStore } = await import('../../src/main/app/safe-storage-token-store');

const onLinux = process.platform === 'linux';

describe.runIf(onLinux)('the safeStorage token store, on Linux', () => {
  let dir: string;
  const electron = (options: Partial<Parameters<typeof createFakeElectron>[0]>): FakeElectron => {
    const e = createFakeElectron({ userData: dir, ...options });
    e.ready();
    fake.current = e;
    return e;
  };
  const keyFile = () => join(dir, 'tokens.keyring.json');
  const stored = async () =>
    (
      JSON.parse(await readFile(keyFile(), 'utf8')) as {
        tokens: Record<string, { secret: string }>;
      }
    ).tokens;
  const tagOf = (secret: string | undefined) =>
    Buffer.from(secret ?? '', 'base64')
      .subarray(0, 3)
      .toString();

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'safe-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('stores only ciphertext, 0600, and reads the token back', async () => {
    electron({ keyring: true });
    const store = new SafeStorageTokenStore(dir);
    await store.set('p', 'secrettoken123', 'https://d.example/api');
    const file = await readFile(keyFile(), 'utf8');
    expect(file).not.toContain('secrettoken123');
    expect((await stat(keyFile())).mode & 0o777).toBe(0o600);
    expect(await store.get('p')).toEqual({ token: 'secrettoken123', origin: 'https://d.example' });
    await store.delete('p');
    expect(await store.has('p')).toBe(false);
  });

  it('calls a keyring secure where one answers, though the desktop is one Electron does not know', async () => {
    // sway with GNOME Keyring running: the synchronous API guesses basic_text.
    electron({ keyring: true, desktopBackend: 'basic_text' });
    const store = new SafeStorageTokenStore(dir);
    expect(await store.info()).toMatchObject({ kind: 'keyring', secure: true });
    await store.set('p', 'secrettoken123', 'https://d.example/api');
    expect(tagOf((await stored()).p?.secret)).toBe('v11');
  });

  it('says the fixed key is no protection where no keyring answers, whatever the desktop', async () => {
    // GNOME with no keyring daemon: the synchronous API guesses gnome_libsecret.
    electron({ keyring: false, desktopBackend: 'gnome_libsecret' });
    const store = new SafeStorageTokenStore(dir);
    const info = await store.info();
    expect(info.secure).toBe(false);
    expect(info.kind).toBe('file');
    expect(info.description).toContain(
      'stored with a fixed key: anyone with your files can read it',
    );
    expect(info.description).toContain('start a keyring');
    expect(info.description).toContain(keyFile());
  });

  it('stores a token again with the keyring’s key once a keyring answers', async () => {
    electron({ keyring: false });
    await new SafeStorageTokenStore(dir).set('p', 'secrettoken123', 'https://d.example/api');
    expect(tagOf((await stored()).p?.secret)).toBe('v10');
    // The next start, with a keyring: decryptStringAsync says shouldReEncrypt.
    electron({ keyring: true });
    const store = new SafeStorageTokenStore(dir);
    expect(await store.get('p')).toEqual({ token: 'secrettoken123', origin: 'https://d.example' });
    expect(tagOf((await stored()).p?.secret)).toBe('v11');
    expect(await store.get('p')).toEqual({ token: 'secrettoken123', origin: 'https://d.example' });
  });

  describe('with the keyring locked', () => {
    const delays = [5, 5, 5];
    const storeToken = async (): Promise<string | undefined> => {
      electron({ keyring: true });
      await new SafeStorageTokenStore(dir, delays).set(
        'p',
        'secrettoken123',
        'https://d.example/api',
      );
      return (await stored()).p?.secret;
    };

    it('reads the token once the keyring is unlocked while it tries again', async () => {
      await storeToken();
      const e = electron({ keyring: true, keyringLocked: true });
      // Delays long enough for the test to unlock it after the first refusal.
      const store = new SafeStorageTokenStore(dir, [300, 300, 300]);
      const reading = store.get('p');
      await vi.waitFor(
        () => {
          expect(e.keyring.decryptAttempts).toBe(1);
        },
        { interval: 1 },
      );
      e.keyring.locked = false;
      expect(await reading).toEqual({ token: 'secrettoken123', origin: 'https://d.example' });
      expect(e.keyring.decryptAttempts).toBeGreaterThanOrEqual(2);
    });

    it('says the keyring is locked when it stays so, and keeps the token', async () => {
      const secret = await storeToken();
      const e = electron({ keyring: true, keyringLocked: true });
      const store = new SafeStorageTokenStore(dir, delays);
      const error = await store.get('p').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DebusineError);
      const failure = error as DebusineError;
      // Not 'auth': the page offers to sign in for that, and the token is good.
      expect(failure.code).not.toBe('auth');
      expect(failure.message).toContain('keyring is locked');
      expect(failure.message).toContain('Unlock the keyring');
      expect(failure.message).not.toContain('sign in');
      // One attempt and one after each delay.
      expect(e.keyring.decryptAttempts).toBe(delays.length + 1);
      expect(await store.has('p')).toBe(true);
      expect((await stored()).p?.secret).toBe(secret);
      // Unlocked, the same store reads it.
      e.keyring.locked = false;
      expect(await store.get('p')).toEqual({
        token: 'secrettoken123',
        origin: 'https://d.example',
      });
    });

    it('still asks to sign in again when the key is gone, without trying again', async () => {
      await storeToken();
      const e = electron({ keyring: false });
      const error = await new SafeStorageTokenStore(dir, delays).get('p').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code: 'auth' });
      expect(e.keyring.decryptAttempts).toBe(1);
    });
  });
});
