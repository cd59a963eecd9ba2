import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProgram, runDebsign, signingAvailable } from '../../src/main/signing/debsign';

// A fake `debsign` on PATH: it wraps the .changes it is given in a clear-signed envelope,
// as the real one does with the user's key (which this machine does not have).
const FAKE_DEBSIGN = `#!/bin/sh
[ "$1" = "--re-sign" ] || exit 3
file="$2"
{ printf -- '-----BEGIN PGP SIGNED MESSAGE-----\\nHash: SHA512\\n\\n'; cat "$file"; printf -- '-----BEGIN PGP SIGNATURE-----\\nfake\\n-----END PGP SIGNATURE-----\\n'; } > "$file.new" && mv "$file.new" "$file"
`;

describe('external signing with debsign', () => {
  let dir: string;
  let bin: string;
  const oldPath = process.env.PATH;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'signing-test-'));
    bin = join(dir, 'bin');
    await (await import('node:fs/promises')).mkdir(bin);
    await writeFile(join(bin, 'debsign'), FAKE_DEBSIGN);
    await chmod(join(bin, 'debsign'), 0o755);
  });
  afterAll(async () => {
    process.env.PATH = oldPath;
    await rm(dir, { recursive: true, force: true });
  });

  it('says what is missing', async () => {
    await expect(signingAvailable(join(dir, 'empty'))).resolves.toEqual({
      available: false,
      debsign: false,
      gpg: false,
      message: 'Install debsign (package devscripts) and gpg (package gnupg) to sign uploads here.',
    });
    await writeFile(join(bin, 'gpg'), '#!/bin/sh\n');
    await chmod(join(bin, 'gpg'), 0o755);
    await expect(signingAvailable(bin)).resolves.toMatchObject({ available: true, message: null });
    await expect(findProgram('debsign', bin)).resolves.toBe(join(bin, 'debsign'));
  });

  it('runs debsign on the .changes without a shell, in its directory', async () => {
    process.env.PATH = `${bin}:${oldPath ?? ''}`;
    const changes = join(dir, "hello_1.0_source; touch pwned'.changes");
    await writeFile(changes, 'Format: 1.8\nSource: hello\n');
    await runDebsign(changes, dir);
    const text = await readFile(changes, 'utf8');
    expect(text).toMatch(/^-----BEGIN PGP SIGNED MESSAGE-----/);
    expect(text).toContain('Source: hello');
  });

  it('reports a failing debsign as a validation error', async () => {
    process.env.PATH = `${bin}:${oldPath ?? ''}`;
    await writeFile(
      join(bin, 'debsign'),
      '#!/bin/sh\necho "gpg: signing failed: No secret key" >&2\nexit 2\n',
    );
    await expect(runDebsign(join(dir, 'x.changes'), dir)).rejects.toMatchObject({
      code: 'validation',
      message: expect.stringContaining('No secret key') as string,
    });
  });
});
