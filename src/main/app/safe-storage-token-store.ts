/**
 * The desktop app's token store: each token encrypted with Electron's safeStorage (its key
 * is kept by the OS keyring: libsecret/KWallet, Keychain, DPAPI), the ciphertexts in
 * `{dataDir}/tokens.keyring.json` (0600). On Linux without a keyring, safeStorage falls
 * back to a hard-coded key (`basic_text`); the store then says it is not secure, so the UI
 * can warn.
 */
import { join } from 'node:path';
import { safeStorage } from 'electron';
import { DebusineError } from '../../shared/errors';
import { SecretFileTokenStore, type TokenStoreInfo } from '../settings/token-store';

const BACKENDS: Record<string, string> = {
  gnome_libsecret: 'the GNOME keyring (libsecret)',
  kwallet: 'KWallet',
  kwallet5: 'KWallet 5',
  kwallet6: 'KWallet 6',
  basic_text: 'a file encrypted with a built-in key (no keyring found)',
};

export class SafeStorageTokenStore extends SecretFileTokenStore {
  constructor(dataDir: string) {
    super(join(dataDir, 'tokens.keyring.json'), {
      encode: async (token) => {
        await requireEncryption();
        return (await safeStorage.encryptStringAsync(token)).toString('base64');
      },
      decode: async (stored) => {
        await requireEncryption();
        const { result } = await safeStorage.decryptStringAsync(Buffer.from(stored, 'base64'));
        return result;
      },
    });
  }

  /** Whether safeStorage can encrypt here; if not, use the FileTokenStore instead. */
  static isAvailable(): Promise<boolean> {
    return safeStorage.isAsyncEncryptionAvailable();
  }

  info(): TokenStoreInfo {
    if (process.platform === 'darwin') {
      return { kind: 'keyring', description: 'the macOS Keychain', secure: true };
    }
    if (process.platform === 'win32') {
      return { kind: 'keyring', description: 'Windows Data Protection (DPAPI)', secure: true };
    }
    const backend = safeStorage.getSelectedStorageBackend();
    return {
      kind: 'keyring',
      description: BACKENDS[backend] ?? 'the system keyring',
      secure: backend !== 'basic_text',
    };
  }
}

async function requireEncryption(): Promise<void> {
  if (!(await safeStorage.isAsyncEncryptionAvailable())) {
    throw new DebusineError(
      'internal',
      'The system keyring is not available, so the token cannot be stored encrypted',
    );
  }
}
