/**
 * The key choice without gpg: the devscripts files read as debsign's shell would (and
 * refused where only a shell could), gpg's colon listing, the rules that pick the key,
 * and what is missing to sign at all.
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseKey, keysNamedBy, requestedKey } from '../../src/main/signing/choose-key';
import { findProgram, signingAvailable } from '../../src/main/signing/debsign';
import {
  parseDebsignAssignments,
  readDebsignConfig,
} from '../../src/main/signing/devscripts-config';
import { emailOf, parseSecretKeys, type SecretKey } from '../../src/main/signing/gpg-keys';

const A = 'A260D2A9F365017140BDDDD2CAEBED84A203F49A';
const B = 'BCC7A5AFE1DFF810F1E049234C9ADD83540650B6';
const C = '1111222233334444555566667777888899990000';

function key(fingerprint: string, uid: string, subkeys: string[] = []): SecretKey {
  const email = /<(.+)>/.exec(uid)?.[1];
  return {
    fingerprint,
    keyId: fingerprint.slice(-16),
    userIds: [uid],
    emails: email ? [email.toLowerCase()] : [],
    signingSubkeys: subkeys,
  };
}

describe('DEBSIGN_KEYID in the devscripts files', () => {
  const parse = (text: string) =>
    Object.fromEntries(parseDebsignAssignments(text, 'f').map(([n, s]) => [n, s.value]));

  it('reads plain assignments as the shell assigns them', () => {
    expect(parse('DEBSIGN_KEYID=ABCD1234\n')).toEqual({ DEBSIGN_KEYID: 'ABCD1234' });
    expect(parse("  export DEBSIGN_KEYID='AB CD' # spaced\n")).toEqual({ DEBSIGN_KEYID: 'AB CD' });
    expect(parse('DEBSIGN_KEYID="Jo \\"J\\" <jo@example.org>"; export DEBSIGN_KEYID\n')).toEqual({
      DEBSIGN_KEYID: 'Jo "J" <jo@example.org>',
    });
    expect(parse('DEBSIGN_KEYID=a\\ b"c"\'d\'\r\n')).toEqual({ DEBSIGN_KEYID: 'a bcd' });
    expect(parse('# DEBSIGN_KEYID=commented\nDEBSIGN_MAINT="Me <me@example.org>"\n')).toEqual({
      DEBSIGN_MAINT: 'Me <me@example.org>',
    });
    // The last assignment of a file wins; other variables are not its business.
    expect(
      parse('DEBSIGN_KEYID=one\nDEBUILD_DPKG_BUILDPACKAGE_OPTS="-us $X"\nDEBSIGN_KEYID=two\n'),
    ).toEqual({
      DEBSIGN_KEYID: 'two',
    });
    expect(parse('if [ -n "$X" ]; then\n  FOO=1\nfi\nDEBSIGN_KEYID=after\n')).toEqual({
      DEBSIGN_KEYID: 'after',
    });
  });

  it('refuses what only a shell could read, saying where', () => {
    const cases = [
      'DEBSIGN_KEYID=$MYKEY',
      'DEBSIGN_KEYID="${MYKEY}"',
      'DEBSIGN_KEYID=`cat ~/.key`',
      'DEBSIGN_KEYID=$(cat ~/.key)',
      'DEBSIGN_KEYID=ABC debsign',
      'DEBSIGN_KEYID="unclosed',
      '[ -f ~/.work ] && DEBSIGN_KEYID=WORK',
      'if [ "$(hostname)" = work ]; then\n  DEBSIGN_KEYID=WORK\nfi',
      'pick() {\n  DEBSIGN_KEYID=WORK\n}',
      'DEBSIGN_KEYID=~/key',
    ];
    for (const text of cases) {
      expect(() => parse(text), text).toThrow(/Cannot read the debsign settings of f, line \d/);
    }
  });

  it('reads /etc/devscripts.conf then ~/.devscripts: the later wins, empty unsets', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ddt-devscripts-'));
    try {
      const etc = join(dir, 'etc.conf');
      const mine = join(dir, 'mine');
      await writeFile(etc, 'DEBSIGN_KEYID=FROMETC\nDEBSIGN_MAINT=etc@example.org\n');
      await writeFile(mine, 'DEBSIGN_KEYID=FROMHOME\n');
      expect(await readDebsignConfig([etc, mine])).toEqual({
        DEBSIGN_KEYID: { value: 'FROMHOME', file: mine, line: 1 },
        DEBSIGN_MAINT: { value: 'etc@example.org', file: etc, line: 2 },
      });
      await writeFile(mine, 'DEBSIGN_KEYID=\n');
      expect(await readDebsignConfig([etc, mine])).toEqual({
        DEBSIGN_MAINT: { value: 'etc@example.org', file: etc, line: 2 },
      });
      // Missing files are skipped, as `[ -r $file ]` does; a FIFO is never opened for reading.
      const fifo = join(dir, 'fifo');
      execFileSync('mkfifo', [fifo]);
      await expect(readDebsignConfig([join(dir, 'none'), mine])).resolves.toEqual({});
      await expect(readDebsignConfig([etc, fifo, mine])).resolves.toMatchObject({
        DEBSIGN_MAINT: { value: 'etc@example.org' },
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("gpg's colon listing of secret keys", () => {
  it('keeps the keys that can sign, with their valid user ids', () => {
    const listing = [
      'sec:u:3072:1:CAEBED84A203F49A:1795663113:::u:::scESC:::+:::23::0:',
      `fpr:::::::::${A}:`,
      'grp:::::::::A97FCD9730E5474F845AF67CE2891761607F9CCA:',
      'uid:u::::1795663113::BA77::Test \\x3a Me <Test@Example.org>::::::::::0:',
      'uid:r::::1795663113::BA78::Old <old@example.org>::::::::::0:',
      'ssb:u:3072:1:4C9ADD83540650B6:1795663113::::::e:::+:::23:',
      `fpr:::::::::${B}:`,
      // Expired: not offered.
      'sec:e:255:22:1111222233334444:1::::::scSC:::+:::23::0:',
      `fpr:::::::::${C}:`,
      'uid:e::::1::X::Expired <e@example.org>::::::::::0:',
      // Primary offline (#), a signing subkey here: it signs.
      'sec:u:255:22:9999222233334444:1::::::scSC:::#:::23::0:',
      `fpr:::::::::${C.replace(/1/g, '9')}:`,
      'uid:u::::1::X::Laptop <laptop@example.org>::::::::::0:',
      'ssb:u:255:22:AAAA222233334444:1::::::s:::+:::23:',
      `fpr:::::::::${B.replace(/B/g, 'D')}:`,
      // Certification only: cannot sign.
      'sec:u:255:22:8888222233334444:1::::::cC:::+:::23::0:',
      `fpr:::::::::${C.replace(/1/g, '8')}:`,
    ].join('\n');
    expect(parseSecretKeys(listing)).toEqual([
      {
        fingerprint: A,
        keyId: 'CAEBED84A203F49A',
        userIds: ['Test : Me <Test@Example.org>'],
        emails: ['test@example.org'],
        signingSubkeys: [],
      },
      {
        fingerprint: C.replace(/1/g, '9'),
        keyId: '9999222233334444',
        userIds: ['Laptop <laptop@example.org>'],
        emails: ['laptop@example.org'],
        signingSubkeys: [B.replace(/B/g, 'D')],
      },
    ]);
  });
});

describe('the address of a user id or a Changed-By', () => {
  it('is the first <…> holding one, or the whole text when it is one', () => {
    expect(emailOf('Me <Me@Example.org>')).toBe('me@example.org');
    expect(emailOf(' me@example.org ')).toBe('me@example.org');
    expect(emailOf('A <@x> <a b@x> <b@y>')).toBe('b@y');
    for (const none of ['x <a@>', 'no address', '<a@b', 'a <x> b@c.d', 'a b@c.d']) {
      expect(emailOf(none), none).toBeUndefined();
    }
  });

  it('is found in time in what a hostile server may send as Changed-By', () => {
    // Each took seconds at 60 kB with a backtracking expression; a .changes may be 16 MiB.
    const hostile = [
      `<${'a@'.repeat(500_000)}`,
      `${'<'.repeat(500_000)}${'a@'.repeat(500_000)}`,
      `${'a@'.repeat(500_000)} x`,
    ];
    const started = performance.now();
    // Compared, not printed: a failure would print a megabyte.
    expect(hostile.map((text) => emailOf(text) === undefined)).toEqual([true, true, true]);
    expect(emailOf(`${'<'.repeat(500_000)}a@b>`)).toBe('a@b');
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('which key debsign would use', () => {
  const test = key(A, 'Test <test@example.org>');
  const other = key(B, 'Other <other@example.org>', [C]);
  const keys = [test, other];
  const setting = (value: string) => ({ value, file: '/home/me/.devscripts', line: 3 });
  const changedBy = 'Other Person <Other@Example.org>';

  it('takes the key chosen only when it is listed', () => {
    expect(requestedKey(keys, B.toLowerCase())).toBe(other);
    expect(() => requestedKey(keys, C)).toThrow(/is not one of your secret keys/);
  });

  it('reads DEBSIGN_KEYID as gpg reads --local-user', () => {
    expect(keysNamedBy(keys, `0x${B.slice(-16)}`)).toEqual([other]);
    expect(keysNamedBy(keys, `${C.slice(-8)}!`)).toEqual([other]);
    expect(keysNamedBy(keys, A.replace(/(.{4})/g, '$1 '))).toEqual([test]);
    expect(keysNamedBy(keys, '<OTHER@example.org>')).toEqual([other]);
    expect(keysNamedBy(keys, 'test')).toEqual([test]);
  });

  it('takes DEBSIGN_KEYID before the .changes, saying where it is set and what it holds', () => {
    expect(
      chooseKey({ keys, config: { DEBSIGN_KEYID: setting('test@example.org') }, changedBy }),
    ).toEqual({
      named: [test],
      reason:
        'DEBSIGN_KEYID in /home/me/.devscripts (line 3) is “test@example.org”, which names ' +
        'this key; debsign signs with it whoever the .changes names.',
    });
  });

  it('says DEBSIGN_KEYID names no key, or several, or a short key id debsign refuses', () => {
    expect(
      chooseKey({ keys, config: { DEBSIGN_KEYID: setting('0xDEADBEEFDEADBEEF') }, changedBy }),
    ).toEqual({
      named: [],
      reason:
        'DEBSIGN_KEYID in /home/me/.devscripts (line 3) is “0xDEADBEEFDEADBEEF”, which names ' +
        'none of your secret keys: debsign would stop there (gpg: No secret key). Correct it, ' +
        'or choose the key to sign with.',
    });
    expect(chooseKey({ keys, config: { DEBSIGN_KEYID: setting('example.org') } })).toMatchObject({
      named: keys,
      reason: expect.stringContaining('names 2 of your secret keys') as string,
    });
    // Both keys end in these 8 digits for gpg, but debsign refuses such an id outright.
    expect(chooseKey({ keys, config: { DEBSIGN_KEYID: setting(A.slice(-8)) } })).toMatchObject({
      named: [],
      reason: expect.stringContaining('a short key id, which debsign refuses') as string,
    });
  });

  it("without DEBSIGN_KEYID, takes the key for Changed-By's address, else Maintainer's", () => {
    expect(chooseKey({ keys, config: {}, changedBy, maintainer: 'T <test@example.org>' })).toEqual({
      named: [other],
      reason:
        "It is your secret key for “other@example.org”: the .changes' Changed-By (its " +
        'uploader) is “Other Person <Other@Example.org>”, and DEBSIGN_KEYID is not set.',
    });
    expect(
      chooseKey({ keys, config: {}, changedBy: ' ', maintainer: 'T <test@example.org>' }),
    ).toMatchObject({
      named: [test],
      reason: expect.stringContaining("the .changes' Maintainer (it has no Changed-By)") as string,
    });
    // DEBSIGN_MAINT stands for the .changes' fields, as -m does.
    expect(
      chooseKey({ keys, config: { DEBSIGN_MAINT: setting('test@example.org') }, changedBy }),
    ).toMatchObject({
      named: [test],
      reason: expect.stringContaining('DEBSIGN_MAINT in /home/me/.devscripts (line 3)') as string,
    });
  });

  it('names no key where none is for the address, even the only key: debsign would stop', () => {
    expect(chooseKey({ keys: [test], config: {}, changedBy })).toEqual({
      named: [],
      reason:
        "None of your secret keys is for “other@example.org”: the .changes' Changed-By (its " +
        'uploader) is “Other Person <Other@Example.org>”, and DEBSIGN_KEYID is not set, so ' +
        'debsign would stop there (gpg: No secret key). Choose the key to sign with, or name ' +
        'yours in DEBSIGN_KEYID (~/.devscripts).',
    });
    expect(chooseKey({ keys, config: {} })).toMatchObject({
      named: [],
      reason: expect.stringContaining('neither Changed-By nor Maintainer') as string,
    });
    expect(chooseKey({ keys, config: {}, changedBy: 'The Team' })).toMatchObject({
      named: [],
      reason: expect.stringContaining('“The Team”, which holds no e-mail address') as string,
    });
    expect(() => chooseKey({ keys: [], config: {} })).toThrow(/no secret key that can sign/);
  });

  it('quotes what the .changes says on one line, bounded, its invisible characters marked', () => {
    const hostile = `Eve \u202Egro.elpmaxe@eve\n${'x'.repeat(500)} <eve@example.org>`;
    const { reason } = chooseKey({ keys, config: {}, changedBy: hostile });
    expect(reason).toContain('Eve <U+202E>gro.elpmaxe@eve xxx');
    expect(reason).not.toMatch(/[\u202E\n]/);
    expect(reason.length).toBeLessThan(500);
  });
});

describe('what signing needs', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ddt-signing-path-'));
    await mkdir(join(dir, 'bin'));
    for (const name of ['debsign', 'gpg']) {
      await writeFile(join(dir, 'bin', name), '#!/bin/sh\n');
      await chmod(join(dir, 'bin', name), 0o755);
    }
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('says which package to install', async () => {
    await expect(signingAvailable(join(dir, 'empty'))).resolves.toEqual({
      available: false,
      debsign: false,
      gpg: false,
      message: 'Install debsign (package devscripts) and gpg (package gnupg) to sign uploads here.',
    });
    await expect(signingAvailable(join(dir, 'bin'))).resolves.toMatchObject({
      available: true,
      message: null,
    });
    await expect(findProgram('debsign', join(dir, 'bin'))).resolves.toBe(
      join(dir, 'bin', 'debsign'),
    );
  });
});
