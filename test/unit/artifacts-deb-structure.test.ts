/**
 * A .deb is checked whole before it is uploaded: the ar magic, every member header, every
 * member inside the file, and debian-binary, control.tar…, data.tar… in that order. A
 * package cut short says "truncated", with the member and the byte counts. Packages are
 * made by dpkg-deb, then cut or edited; the odd layouts are written by hand.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDebStructure } from '../../src/main/artifacts/formats/deb-archive';
import { detectKind } from '../../src/main/artifacts/local/detect';
import {
  createBinaryPackage,
  createBinaryPackages,
} from '../../src/main/artifacts/local/kinds-debian';
import { uploadArtifact } from '../../src/main/artifacts/transfer/upload-engine';
import { DebusineError } from '../../src/shared/errors';
import { useCountingServer } from '../support/counting-server';
import { debianFixtures, missingDebianTools } from '../support/debian-fixtures';

const skip = missingDebianTools();
const dir = mkdtempSync(join(tmpdir(), 'ddt-deb-'));

interface Member {
  name: string;
  headerAt: number;
  offset: number;
  size: number;
}

/** The test's own reading of an ar archive's layout (not the code under test). */
function layout(data: Buffer): Member[] {
  const members: Member[] = [];
  let at = 8;
  while (at + 60 <= data.length) {
    const name = data.toString('latin1', at, at + 16).trim();
    const size = Number(data.toString('latin1', at + 48, at + 58).trim());
    members.push({ name, headerAt: at, offset: at + 60, size });
    at += 60 + size + (size % 2);
  }
  return members;
}

/** An ar archive as dpkg-deb writes one. */
function ar(members: [string, Buffer | string][]): Buffer {
  const parts: Buffer[] = [Buffer.from('!<arch>\n')];
  for (const [name, content] of members) {
    const body = Buffer.from(content);
    const header =
      name.padEnd(16) +
      '0'.padEnd(12) +
      '0'.padEnd(6) +
      '0'.padEnd(6) +
      '100644'.padEnd(8) +
      String(body.length).padEnd(10) +
      '`\n';
    parts.push(Buffer.from(header, 'latin1'), body);
    if (body.length % 2) parts.push(Buffer.from('\n'));
  }
  return Buffer.concat(parts);
}

let n = 0;
function write(data: Buffer): string {
  const path = join(dir, `pkg${String(++n)}_1.0_all.deb`);
  writeFileSync(path, data);
  return path;
}

async function refusal(path: string): Promise<DebusineError> {
  try {
    await createBinaryPackage(path);
  } catch (error) {
    if (error instanceof DebusineError) return error;
    throw error;
  }
  throw new Error(`${path} was accepted`);
}

describe.skipIf(skip)('the structure of a .deb', () => {
  // Built while collecting, as in artifacts-kinds.test.ts: a few seconds, not a test's time.
  const fx = skip ? undefined : debianFixtures();
  const original = () => readFileSync(fx?.debs[0] ?? '');
  const members = () => layout(original());
  const member = (i: number): Member => {
    const m = members()[i];
    if (!m) throw new Error(`no member ${String(i)}`);
    return m;
  };

  it('is what dpkg-deb writes: debian-binary, control.tar.xz, data.tar.xz', () => {
    expect(members().map((m) => m.name)).toEqual([
      'debian-binary',
      'control.tar.xz',
      'data.tar.xz',
    ]);
  });

  it('refuses a package cut inside its data member (the data member is checked too)', async () => {
    const data = member(2);
    const path = write(original().subarray(0, data.offset + 10));
    const error = await refusal(path);
    expect(error.message).toBe(
      `${path.split('/').pop() ?? ''} is truncated: member data.tar.xz at byte ${String(data.offset)} ` +
        `needs ${String(data.size)} bytes${data.size % 2 ? ' (+1 padding)' : ''}, the file has 10 of them`,
    );
    expect(error.details).toMatchObject({ file: path, rule: 'deb-truncated' });
  });

  it('says "truncated" for a package cut inside an ar header', async () => {
    const control = member(1);
    const path = write(original().subarray(0, control.headerAt + 30));
    const error = await refusal(path);
    expect(error.message).toContain(
      `is truncated: the header of member 2 (control.tar.xz) at byte ${String(control.headerAt)} has 30 of its 60 bytes`,
    );
    expect(error.message).not.toContain('no control.tar member');
  });

  it.each([
    ['inside the ar magic', () => 5, 'inside the ar magic'],
    [
      'inside debian-binary',
      () => member(0).offset + 2,
      'member debian-binary at byte 68 needs 4 bytes, the file has 2 of them',
    ],
    ['inside the control member', () => member(1).offset + 10, 'member control.tar.xz at byte'],
    ['before the data member', () => member(2).headerAt, 'it ends after control.tar.xz'],
    ['right after debian-binary', () => member(1).headerAt, 'with no control.tar member'],
  ])('says "truncated" for a package cut %s', async (_where, at, message) => {
    const path = write(original().subarray(0, at()));
    const error = await refusal(path);
    expect(error.message).toContain('is truncated');
    expect(error.message).toContain(message);
    expect(error.message.startsWith(path.split('/').pop() ?? '')).toBe(true);
  });

  it('refuses wrong magic, a bad size field and a bad header terminator', async () => {
    const magic = Buffer.from(original());
    magic.write('!<arhc>\n', 0, 'latin1');
    expect((await refusal(write(magic))).message).toContain('does not start with "!<arch>"');
    const size = Buffer.from(original());
    size.write('12a4      ', member(1).headerAt + 48, 'latin1');
    expect((await refusal(write(size))).message).toContain(
      `member 2 (control.tar.xz) at byte ${String(member(1).headerAt)} has an invalid size field "12a4      "`,
    );
    const end = Buffer.from(original());
    end.write('xx', member(1).headerAt + 58, 'latin1');
    expect((await refusal(write(end))).message).toContain('does not end with');
  });

  it('refuses members out of order, a format other than 2.x, an unknown compression', async () => {
    const cases: [[string, string][], string][] = [
      [
        [
          ['control.tar.xz', 'c'],
          ['debian-binary', '2.0\n'],
          ['data.tar.xz', 'd'],
        ],
        'the first member is "control.tar.xz"',
      ],
      [
        [
          ['debian-binary', '3.0\n'],
          ['control.tar.xz', 'c'],
          ['data.tar.xz', 'd'],
        ],
        'debian-binary says "3.0"',
      ],
      [
        [
          ['debian-binary', '2.0\n'],
          ['data.tar.xz', 'd'],
          ['control.tar.xz', 'c'],
        ],
        'expected a control.tar member after debian-binary, found "data.tar.xz"',
      ],
      [
        [
          ['debian-binary', '2.0\n'],
          ['control.tar.xz', 'c'],
          ['data.tar.foo', 'd'],
        ],
        'expected a data.tar member after control.tar.xz, found "data.tar.foo"',
      ],
    ];
    for (const [layoutOf, message] of cases) {
      expect((await refusal(write(ar(layoutOf)))).message).toContain(message);
    }
  });

  it('accepts optional members named _… between, anything after data.tar, and format 2.1', async () => {
    const path = write(
      ar([
        ['debian-binary', '2.1\nmore\n'],
        ['_gpgorigin', 'sig'],
        ['control.tar.zst', 'c'],
        ['_extra', 'x'],
        ['data.tar.lzma', 'odd'],
        ['trailing', 'y'],
      ]),
    );
    const found = await checkDebStructure(path);
    expect([found.control.name, found.data.name]).toEqual(['control.tar.zst', 'data.tar.lzma']);
  });

  it('shows the problem next to the file when detecting one or several packages', async () => {
    const path = write(original().subarray(0, member(2).offset + 10));
    const one = await detectKind([path]);
    expect(one.error?.details).toMatchObject({ file: path, rule: 'deb-truncated' });
    const several = createBinaryPackages({
      srcpkgName: 'hello-ddt',
      srcpkgVersion: '1.0',
      version: '1.0',
      architecture: 'all',
      files: [fx?.debs[1] ?? '', path],
    });
    await expect(several).rejects.toMatchObject({ details: { file: path, rule: 'deb-truncated' } });
  });

  describe('a refused upload', () => {
    const server = useCountingServer();

    it('sends nothing when the package was cut after it was detected', async () => {
      const path = write(original());
      const artifact = await createBinaryPackage(path);
      writeFileSync(path, original().subarray(0, member(2).offset + 10));
      await expect(uploadArtifact(server().transport, artifact)).rejects.toMatchObject({
        details: { rule: 'deb-truncated' },
      });
      expect(server().requests).toEqual([]);
    });
  });
});
