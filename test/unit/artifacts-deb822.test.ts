import { describe, expect, it } from 'vitest';
import { parseDeb822 } from '../../src/main/artifacts/formats/deb822';
import { parseControlFileText } from '../../src/main/artifacts/local/debian-files';
import { DebusineError } from '../../src/shared/errors';

const DSC = `Format: 3.0 (native)
Source: hello
Binary: hello
Version: 1.0
Maintainer: Someone <someone@example.org>
Files:
 d41d8cd98f00b204e9800998ecf8427e 123 hello_1.0.tar.xz
Checksums-Sha256:
 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 123 hello_1.0.tar.xz
`;

function signed(body: string): string {
  return `-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA512\n\n${body}\n-----BEGIN PGP SIGNATURE-----\n\niQIzBAEBCgAdFiEE\n=abcd\n-----END PGP SIGNATURE-----\n`;
}

function errorOf(fn: () => unknown): DebusineError {
  try {
    fn();
  } catch (error) {
    if (error instanceof DebusineError) return error;
    throw error;
  }
  throw new Error('expected a DebusineError');
}

describe('parseDeb822', () => {
  it('reads paragraphs, multi-line fields and comments', () => {
    const doc = parseDeb822('# comment\nA: 1\nB: first\n second\n .\n third\n\n\nC:  x  \n');
    expect(doc.signed).toBe(false);
    expect(doc.paragraphs).toEqual([{ A: '1', B: 'first\n second\n .\n third' }, { C: 'x' }]);
  });

  it('strips a clear-signed wrapper and reports it as signed', () => {
    const doc = parseDeb822(signed('Source: hello\nDescription: x\n - dash\n- Version: 1'));
    expect(doc.signed).toBe(true);
    expect(doc.paragraphs).toEqual([{ Source: 'hello', Description: 'x\n - dash', Version: '1' }]);
  });

  it('keeps a field named __proto__ as a plain field', () => {
    const doc = parseDeb822('__proto__: x\n');
    expect(Object.getPrototypeOf(doc.paragraphs[0])).toBe(Object.prototype);
    expect(Object.keys(doc.paragraphs[0] ?? {})).toEqual(['__proto__']);
  });

  it.each([
    ['a continuation first', ' x\n', 1, 'continuation'],
    ['a line without a colon', 'A: 1\nnonsense\n', 2, 'expected "Field: value"'],
    ['a duplicate field', 'A: 1\nB: 2\nA: 3\n', 3, 'duplicate field'],
    ['an empty field name', ': x\n', 1, 'expected'],
    ['a NUL byte', 'A: 1\nB: \0\n', 2, 'NUL'],
    [
      'a signature without its block',
      '-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA1\n\nA: 1\n',
      5,
      'signature block',
    ],
    ['armour outside a signed message', 'A: 1\n-----BEGIN PGP SIGNATURE-----\n', 2, 'armour'],
    ['text after the signature', `${signed('A: 1')}junk\n`, 10, 'after the end'],
  ])('refuses %s, naming file and line', (_name, text, line, message) => {
    const error = errorOf(() => parseDeb822(text, { file: 'x.dsc' }));
    expect(error.code).toBe('validation');
    expect(error.message).toContain(`x.dsc:${String(line)}:`);
    expect(error.message).toContain(message);
    expect(error.details).toMatchObject({ file: 'x.dsc', line, rule: 'deb822-syntax' });
  });
});

describe('.dsc and .changes fields', () => {
  it('turns file lists into python-debian dictionaries', () => {
    const parsed = parseControlFileText('dsc', signed(DSC), 'hello_1.0.dsc');
    expect(parsed.signed).toBe(true);
    expect(parsed.fields.Files).toEqual([
      { md5sum: 'd41d8cd98f00b204e9800998ecf8427e', size: '123', name: 'hello_1.0.tar.xz' },
    ]);
    expect(parsed.fields['Checksums-Sha256']).toEqual([
      {
        sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
        size: '123',
        name: 'hello_1.0.tar.xz',
      },
    ]);
    expect(parsed.files).toEqual([
      expect.objectContaining({ name: 'hello_1.0.tar.xz', size: 123 }),
    ]);
  });

  it('refuses a listed name with more than one path component', () => {
    const error = errorOf(() =>
      parseControlFileText('changes', 'Files:\n 0 1 misc optional ../evil\n', 'x.changes'),
    );
    expect(error.message).toContain("more than one path component: '../evil'");
  });

  it('requires Source and Version in a .dsc', () => {
    expect(errorOf(() => parseControlFileText('dsc', 'Source: a\n', 'a.dsc')).message).toBe(
      "'a.dsc' does not contain Version field",
    );
  });
});

/** mulberry32: a small seeded generator, so that a failure can be replayed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = 'AB:- \n\t#.\0-----BEGIN PGP SIGNED MESSAGE-----\nHash: x\n\u00e9\r';
const SEEDS = [DSC, signed(DSC), 'A: 1\n\nB: 2\n continued\n'];

function mutate(random: () => number, input: string): string {
  let text = input;
  const edits = 1 + Math.floor(random() * 6);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(random() * (text.length + 1));
    const choice = random();
    if (choice < 0.35) text = text.slice(0, at) + text.slice(at + 1 + Math.floor(random() * 8));
    else if (choice < 0.7) {
      const piece = ALPHABET.slice(Math.floor(random() * ALPHABET.length)).slice(
        0,
        1 + Math.floor(random() * 12),
      );
      text = text.slice(0, at) + piece + text.slice(at);
    } else {
      const from = Math.floor(random() * text.length);
      text = text.slice(0, at) + text.slice(from, from + 20) + text.slice(at);
    }
  }
  return text;
}

describe('deb822 fuzzing', () => {
  it('answers random and mutated input with a result or a validation error, never a crash', () => {
    const random = rng(0xdeb822);
    const started = Date.now();
    let errors = 0;
    for (let i = 0; i < 5000; i++) {
      const text =
        i % 3 === 0
          ? Array.from({ length: Math.floor(random() * 200) }, () =>
              ALPHABET.charAt(Math.floor(random() * ALPHABET.length)),
            ).join('')
          : mutate(random, SEEDS[i % SEEDS.length] ?? '');
      for (const parse of [
        () => parseDeb822(text, { file: 'fuzz' }),
        () => parseControlFileText('dsc', text, 'fuzz.dsc'),
        () => parseControlFileText('changes', text, 'fuzz.changes'),
      ]) {
        try {
          parse();
        } catch (error) {
          if (!(error instanceof DebusineError) || error.code !== 'validation') {
            throw new Error(
              `iteration ${String(i)}: ${String(error)} for ${JSON.stringify(text)}`,
              {
                cause: error,
              },
            );
          }
          errors++;
        }
      }
    }
    expect(errors).toBeGreaterThan(0);
    // A linear parser: 15000 parses of small inputs are far below a second each.
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('parses a large input in linear time', () => {
    const big = `A: x\n${' line\n'.repeat(200_000)}`;
    const started = Date.now();
    expect(parseDeb822(big).paragraphs).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
