import { once } from 'node:events';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guessContentType } from '../../src/main/artifacts/local/content-types';
import { readDebControl } from '../../src/main/artifacts/formats/deb-package';
import { readChanges, readDsc } from '../../src/main/artifacts/local/debian-files';
import { detectKind } from '../../src/main/artifacts/local/detect';
import { CATEGORIES } from '../../src/main/artifacts/local/kind-data';
import { validateLocalArtifact } from '../../src/main/artifacts/local/kind-rules';
import {
  createBinaryPackage,
  createBinaryPackages,
  createPackageBuildLog,
  createSourcePackage,
  createSourcePackageFromDsc,
  createUpload,
} from '../../src/main/artifacts/local/kinds-debian';
import { LocalArtifact } from '../../src/main/artifacts/local/local-artifact';
import { uploadArtifact } from '../../src/main/artifacts/transfer/upload-engine';
import { HttpTransport } from '../../src/main/api/http';
import { debianFixtures, missingDebianTools } from '../support/debian-fixtures';
import { rejection } from '../support/clients';

const skip = missingDebianTools();
if (skip) console.warn(`Skipping Debian fixture tests: ${skip}`);

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'ddt-kinds-'));
}

function file(dir: string, name: string, content = name): string {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  return path;
}

describe.skipIf(skip)('packages made by dpkg-buildpackage and dpkg-deb', () => {
  const fx = skip ? undefined : debianFixtures();
  const f = () => {
    if (!fx) throw new Error('no fixtures');
    return fx;
  };

  it.each(['gzip', 'zstd', 'none'] as const)(
    'reads control fields with control.tar %s',
    async (z) => {
      const control = await readDebControl(f().debByCompression[z]);
      expect(control.fields.Package).toBe('hello-ddt');
      expect(control.fields.Version).toBe('1.0');
      expect(control.controlFiles).toContain('control');
    },
  );

  it('reads a .deb made by dpkg-buildpackage (control.tar.xz)', async () => {
    const artifact = await createBinaryPackage(f().debs[0] ?? '');
    expect(artifact.category).toBe(CATEGORIES.binaryPackage);
    expect(artifact.data).toMatchObject({
      srcpkg_name: 'hello-ddt',
      srcpkg_version: '1.0',
      deb_control_files: ['control'],
    });
    expect((artifact.data.deb_fields as Record<string, string>).Description).toBe(
      'tiny test package for Debusine Desktop\n A package built by the test suite.',
    );
  });

  it('reads the .dsc and the .changes like python-debian', async () => {
    const dsc = await readDsc(f().dsc);
    expect(dsc.fields.Source).toBe('hello-ddt');
    expect(dsc.files.map((x) => x.name)).toEqual(['hello-ddt_1.0.tar.xz']);
    const changes = await readChanges(f().changes);
    const files = changes.fields.Files as Record<string, string>[];
    expect(Object.keys(files[0] ?? {})).toEqual(['md5sum', 'size', 'section', 'priority', 'name']);
    expect(typeof files[0]?.size).toBe('string');
    expect(changes.sha256.map((x) => x.name).sort()).toEqual(
      [
        'hello-ddt_1.0.dsc',
        'hello-ddt_1.0.tar.xz',
        'hello-ddt-data_1.0_all.deb',
        'hello-ddt_1.0_all.deb',
        basename(f().buildinfo),
      ].sort(),
    );
  });

  it('builds a source package from its .dsc', async () => {
    const artifact = await createSourcePackageFromDsc(f().dsc);
    expect(artifact.paths()).toEqual(['hello-ddt_1.0.dsc', 'hello-ddt_1.0.tar.xz']);
    expect(artifact.data).toMatchObject({ name: 'hello-ddt', version: '1.0', type: 'dpkg' });
  });

  it('builds an upload with the files its .changes lists', async () => {
    const artifact = await createUpload({ changesFile: f().changes });
    expect(artifact.paths()).toHaveLength(6);
    expect(artifact.contentTypeOf(basename(f().changes))).toBe('text/plain; charset=utf-8');
  });

  it('makes listed files that are missing locally remote files with allow_remote', async () => {
    const dir = scratch();
    copyFileSync(f().changes, join(dir, basename(f().changes)));
    copyFileSync(f().dsc, join(dir, 'hello-ddt_1.0.dsc'));
    const changes = join(dir, basename(f().changes));
    const error = await rejection(createUpload({ changesFile: changes }));
    expect(error.details.rule).toBe('file-exists');
    const artifact = await createUpload({ changesFile: changes, allowRemote: true });
    expect([...artifact.files.keys()].sort()).toEqual(
      [basename(changes), 'hello-ddt_1.0.dsc'].sort(),
    );
    expect(artifact.remoteFiles.get('hello-ddt_1.0.tar.xz')).toMatchObject({ type: 'file' });
    expect(artifact.toJSON().remote_files['hello-ddt_1.0.tar.xz']?.checksums.sha256).toMatch(
      /^[0-9a-f]{64}$/,
    );
  });

  it('leaves out excluded files', async () => {
    const artifact = await createUpload({
      changesFile: f().changes,
      excludeFiles: [basename(f().buildinfo)],
    });
    expect(artifact.paths()).not.toContain(basename(f().buildinfo));
  });

  it.each([
    ['a .changes', (x: ReturnType<typeof debianFixtures>) => [x.dir], 'upload', 0],
    [
      'a .dsc',
      (x: ReturnType<typeof debianFixtures>) => [x.dsc, x.sourceTarball],
      'sourcePackage',
      0,
    ],
    ['one .deb', (x: ReturnType<typeof debianFixtures>) => [x.debs[0] ?? ''], 'binaryPackage', 0],
    ['several .debs', (x: ReturnType<typeof debianFixtures>) => x.debs, 'binaryPackages', 0],
    ['a .build', (x: ReturnType<typeof debianFixtures>) => [x.buildLog], 'packageBuildLog', 0],
  ])('detects %s', async (_name, paths, kind, missing) => {
    const detection = await detectKind(paths(f()));
    expect(detection.kind).toBe(kind);
    expect(detection.error).toBeNull();
    expect(detection.artifact).not.toBeNull();
    expect(detection.missing).toHaveLength(missing);
    expect(detection.reason.length).toBeGreaterThan(10);
  });

  it('builds the other Debian kinds from explicit inputs, and survives a JSON round trip', async () => {
    const source = await createSourcePackage({
      name: 'hello-ddt',
      version: '1.0',
      files: [f().dsc, f().sourceTarball],
    });
    const debs = await createBinaryPackages({
      srcpkgName: 'hello-ddt',
      srcpkgVersion: '1.0',
      version: '1.0',
      architecture: 'all',
      files: [...f().debs, f().udeb],
    });
    expect(debs.data.packages).toEqual(['hello-ddt', 'hello-ddt-data', 'hello-ddt']);
    const log = await createPackageBuildLog({
      file: f().buildLog,
      source: 'hello-ddt',
      version: '1.0',
    });
    expect(log.data).toEqual({
      source: 'hello-ddt',
      version: '1.0',
      filename: basename(f().buildLog),
    });
    for (const artifact of [source, debs, log]) {
      const copy = LocalArtifact.fromJSON(JSON.parse(JSON.stringify(artifact.toJSON())));
      expect(validateLocalArtifact(copy)).toBeTruthy();
    }
  });

  it('explains what is missing and extra', async () => {
    const dir = scratch();
    copyFileSync(f().dsc, join(dir, 'hello-ddt_1.0.dsc'));
    file(dir, 'notes.txt');
    const detection = await detectKind([dir]);
    expect(detection.kind).toBe('sourcePackage');
    expect(detection.missing).toEqual(['hello-ddt_1.0.tar.xz']);
    expect(detection.extra.map((p) => basename(p))).toEqual(['notes.txt']);
    expect(detection.artifact).toBeNull();
    expect(detection.error?.message).toContain('does not exist');
  });

  it('does not pick one of several .changes', async () => {
    const dir = scratch();
    file(dir, 'a.changes', 'Architecture: source\nFiles:\n');
    file(dir, 'b.changes', 'Architecture: source\nFiles:\n');
    const detection = await detectKind([dir]);
    expect(detection.kind).toBeNull();
    expect(detection.reason).toContain('2 .changes');
  });
});

describe('adding files to a local artifact', () => {
  it.each([
    [
      'a relative base directory',
      (d: string) => ({ file: file(d, 'a'), base: 'rel' }),
      'base-dir-absolute',
    ],
    [
      'a base directory that is a file',
      (d: string) => ({ file: file(d, 'b'), base: file(d, 'x') }),
      'base-dir-directory',
    ],
    ['a missing file', (d: string) => ({ file: join(d, 'nope'), base: undefined }), 'file-exists'],
    [
      'a file outside the base directory',
      (d: string) => ({ file: file(d, 'c'), base: join(d, 'sub') }),
      'file-in-base-dir',
    ],
  ])('refuses %s', async (_name, make, rule) => {
    const dir = scratch();
    mkdirSync(join(dir, 'sub'));
    const { file: path, base } = make(dir);
    const artifact = new LocalArtifact(CATEGORIES.workRequestDebugLogs);
    const error = await rejection(
      artifact.addLocalFile(path, base === undefined ? {} : { baseDirectory: base }),
    );
    expect(error.code).toBe('validation');
    expect(error.details.rule).toBe(rule);
  });

  // Debusine answers an artifact holding such a name with 400 "url: Enter a valid URL."
  // (the download URL it builds for the file has a space in it) and creates nothing: the
  // app says which file and why, before hashing or sending anything.
  it.each(['with space.log', 'logs/tab\there.log', 'nbsp\u00a0name.log', 'line\u2028sep.log'])(
    'refuses %j, a name Debusine cannot list, before any request',
    async (name) => {
      const dir = scratch();
      const added = new LocalArtifact(CATEGORIES.workRequestDebugLogs);
      const refused = await rejection(added.addLocalFile(file(dir, 'x'), { overrideName: name }));
      expect(refused.details.rule).toBe('path-in-artifact');
      // Quoted, with the separator that would break the line shown as its code point.
      expect(refused.message).toContain(JSON.stringify(name).replace('\u2028', '<U+2028>'));

      let requests = 0;
      const server = createServer((_req, res) => {
        requests++;
        res.writeHead(500).end();
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      const { port } = server.address() as AddressInfo;
      try {
        const artifact = new LocalArtifact(CATEGORIES.workRequestDebugLogs);
        artifact.files.set(name, file(dir, 'y'));
        const http = new HttpTransport({
          apiUrl: `http://127.0.0.1:${String(port)}/api`,
          retries: 0,
        });
        const error = await rejection(uploadArtifact(http, artifact, { workspace: 'System' }));
        expect(error.details).toMatchObject({ rule: 'path-in-artifact', file: name });
        expect(error.message).toContain(JSON.stringify(name).replace('\u2028', '<U+2028>'));
        expect(requests).toBe(0);
      } finally {
        server.close();
      }
    },
  );

  it('refuses a path already used, locally or remotely', async () => {
    const dir = scratch();
    const artifact = new LocalArtifact(CATEGORIES.workRequestDebugLogs);
    await artifact.addLocalFile(file(dir, 'log.txt'));
    expect(
      (await rejection(artifact.addLocalFile(file(join(dir, 'x'), 'log.txt')))).details.rule,
    ).toBe('path-unique');
    artifact.addRemoteFile('r.txt', { size: 1, checksums: { sha256: 'a' }, type: 'file' });
    const again = await rejection(artifact.addLocalFile(file(dir, 'r.txt')));
    expect(again.message).toContain('already in the artifact');
  });

  it('keeps paths relative to the base directory, with an override name and content type', async () => {
    const dir = scratch();
    const artifact = new LocalArtifact(CATEGORIES.signingInput);
    expect(await artifact.addLocalFile(file(dir, 'a/b/c.efi'), { baseDirectory: dir })).toBe(
      'a/b/c.efi',
    );
    expect(
      await artifact.addLocalFile(file(dir, 'x'), {
        overrideName: 'y.bin',
        contentType: 'application/x-y',
      }),
    ).toBe('y.bin');
    expect(artifact.contentTypeOf('y.bin')).toBe('application/x-y');
  });

  it('round-trips its JSON form and rejects unknown fields', () => {
    const artifact = LocalArtifact.fromJSON({
      category: 'debian:blhc',
      files: { 'blhc.txt': '/tmp/x' },
    });
    expect(artifact.toJSON()).toEqual({
      category: 'debian:blhc',
      files: { 'blhc.txt': '/tmp/x' },
      remote_files: {},
      content_types: {},
      data: {},
    });
    expect(() => LocalArtifact.fromJSON({ category: 'debian:blhc', extra: 1 })).toThrow(
      /local artifact/,
    );
  });
});

describe('content types without libmagic', () => {
  it.each([
    ['x.dsc', 'text/plain; charset=utf-8'],
    ['x.changes', 'text/plain; charset=utf-8'],
    ['x.buildinfo', 'text/plain; charset=utf-8'],
    ['README.md', 'text/markdown; charset=utf-8'],
    ['x.tar.xz', 'application/x-xz; charset=binary'],
    ['x.deb', 'application/vnd.debian.binary-package; charset=binary'],
    ['unknown.bin', 'application/octet-stream'],
  ])('%s is %s', (name, type) => {
    expect(guessContentType(name)).toBe(type);
  });
});
