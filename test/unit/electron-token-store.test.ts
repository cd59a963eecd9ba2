import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const fake = vi.hoisted(() => ({ available: true, backend: 'gnome_libsecret' }));
vi.mock('electron', () => ({
  safeStorage: {
    isAsyncEncryptionAvailable: () => Promise.resolve(fake.available),
    encryptStringAsync: (text: string) =>
      Promise.resolve(Buffer.from(`enc:${Buffer.from(text).toString('hex')}`)),
    decryptStringAsync: (data: Buffer) =>
      Promise.resolve({
        shouldReEncrypt: false,
        result: Buffer.from(data.toString().slice(4), 'hex').toString(),
      }),
    getSelectedStorageBackend: () => fake.backend,
  },
}));

const { SafeStorageTokenStore } = await import('../../src/main/app/safe-storage-token-store');

describe('the safeStorage token store', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'safe-'));
    fake.available = true;
    fake.backend = 'gnome_libsecret';
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('stores only ciphertext, and reads the token back', async () => {
    const store = new SafeStorageTokenStore(dir);
    await store.set('p', 'secrettoken123', 'https://d.example/api');
    const file = await readFile(join(dir, 'tokens.keyring.json'), 'utf8');
    expect(file).not.toContain('secrettoken123');
    expect(await store.get('p')).toEqual({
      token: 'secrettoken123',
      origin: 'https://d.example',
    });
    await store.delete('p');
    expect(await store.has('p')).toBe(false);
  });

  it('says which keyring is used, and when it is not secure', () => {
    const store = new SafeStorageTokenStore(dir);
    if (process.platform === 'linux') {
      expect(store.info()).toEqual({
        kind: 'keyring',
        description: 'the GNOME keyring (libsecret)',
        secure: true,
      });
      fake.backend = 'basic_text';
      expect(store.info().secure).toBe(false);
    }
  });

  it('refuses to store when encryption is not available', async () => {
    fake.available = false;
    expect(await SafeStorageTokenStore.isAvailable()).toBe(false);
    await expect(
      new SafeStorageTokenStore(dir).set('p', 'secrettoken123', 'https://d.example/api'),
    ).rejects.toMatchObject({
      code: 'internal',
    });
  });
});
