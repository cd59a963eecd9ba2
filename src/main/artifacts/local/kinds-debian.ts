/**
 * Builders for the Debian package kinds: source package, binary package(s), upload and
 * package build log. Each reads what it needs from the files themselves (the .dsc, the
 * .changes, the .deb's control member), fills `data` as the server's models expect it, and
 * checks the kind's rules before returning.
 */
import { access } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { DebusineError } from '../../../shared/errors';
import { TEXT_PLAIN } from './content-types';
import { readDebControl } from '../formats/deb-package';
import { getField } from '../formats/deb822';
import { fieldString, readChanges, readDsc } from './debian-files';
import { CATEGORIES, withoutNulls } from './kind-data';
import { validateLocalArtifact, type RuleOptions } from './kind-rules';
import { LocalArtifact } from './local-artifact';
import { checkLocalFiles } from './local-checks';

/** The kind's rules, then the local files against what their control files list. */
async function checked(artifact: LocalArtifact, options?: RuleOptions): Promise<LocalArtifact> {
  validateLocalArtifact(artifact, options);
  await checkLocalFiles(artifact);
  return artifact;
}

export async function createSourcePackage(input: {
  name: string;
  version: string;
  files: string[];
}): Promise<LocalArtifact> {
  const dscs = input.files.filter((f) => f.endsWith('.dsc'));
  const dsc = dscs.length === 1 && dscs[0] ? await readDsc(dscs[0]) : undefined;
  const artifact = new LocalArtifact(CATEGORIES.sourcePackage, {
    name: input.name,
    version: input.version,
    type: 'dpkg',
    dsc_fields: dsc?.fields ?? {},
  });
  for (const file of input.files) await artifact.addLocalFile(file);
  return checked(artifact);
}

/**
 * The source package of an upload's .dsc, as dput-ng makes it: the .dsc and every file it
 * lists, taken from the .dsc's folder, where dpkg-source looks for them too. A .changes
 * need not list them all: the orig tarball of a new Debian revision is in the .dsc only.
 * With allowRemote, a listed file missing from the folder becomes a remote file, with the
 * size and SHA-256 the .dsc lists: the caller has checked that the server holds it.
 * Without, a missing file is refused with every missing name.
 */
export async function createSourcePackageForUpload(
  dscFile: string,
  options: { allowRemote?: boolean } = {},
): Promise<LocalArtifact> {
  const dsc = await readDsc(dscFile);
  const dir = dirname(resolve(dscFile));
  const artifact = new LocalArtifact(CATEGORIES.sourcePackage, {
    name: fieldString(dsc.fields, 'Source') ?? '',
    version: fieldString(dsc.fields, 'Version') ?? '',
    type: 'dpkg',
    dsc_fields: dsc.fields,
  });
  await artifact.addLocalFile(resolve(dscFile));
  const missing: string[] = [];
  for (const entry of dsc.files) {
    const path = join(dir, entry.name);
    if (await exists(path)) {
      await artifact.addLocalFile(path);
      continue;
    }
    if (!options.allowRemote) {
      missing.push(entry.name);
      continue;
    }
    const sha256 = dsc.sha256.find((e) => e.name === entry.name);
    if (!sha256?.sha256) {
      throw new DebusineError(
        'validation',
        `${basename(dscFile)} has no Checksums-Sha256 entry for ${entry.name}: it cannot be a remote file`,
        { rule: 'source-package.remote-needs-sha256', file: entry.name },
      );
    }
    artifact.addRemoteFile(entry.name, {
      size: sha256.size,
      checksums: { sha256: sha256.sha256 },
      type: 'file',
    });
  }
  if (missing.length > 0) {
    throw new DebusineError(
      'validation',
      `${basename(dscFile)} lists ${missing.join(', ')}, not found beside it`,
      {
        rule: 'missing-file',
        file: missing[0],
        problems: missing.map((name) => ({
          rule: 'missing-file',
          file: name,
          message: `${name} is listed in ${basename(dscFile)} but is not beside it`,
        })),
      },
    );
  }
  return checked(artifact);
}

/** A source package from its .dsc alone: name, version and files come from the .dsc. */
export async function createSourcePackageFromDsc(dscFile: string): Promise<LocalArtifact> {
  const dsc = await readDsc(dscFile);
  const dir = dirname(resolve(dscFile));
  return createSourcePackage({
    name: fieldString(dsc.fields, 'Source') ?? '',
    version: fieldString(dsc.fields, 'Version') ?? '',
    files: [resolve(dscFile), ...dsc.files.map((f) => join(dir, f.name))],
  });
}

export async function createBinaryPackage(file: string): Promise<LocalArtifact> {
  if (!file.endsWith('.deb') && !file.endsWith('.udeb')) {
    throw new DebusineError(
      'validation',
      `Valid file suffixes: [.deb, .udeb]. Invalid filename: "${basename(file)}"`,
      { rule: 'binary-package.suffix', file },
    );
  }
  const { fields, controlFiles } = await readDebControl(file);
  const pkg = getField(fields, 'Package') ?? '';
  let srcpkgName = getField(fields, 'Source') ?? pkg;
  let srcpkgVersion = getField(fields, 'Version') ?? '';
  // "Source: name (version)" when the binary version differs from the source's.
  const match = /^(.*) \((.*)\)$/.exec(srcpkgName);
  if (match?.[1] !== undefined && match[2] !== undefined) {
    srcpkgName = match[1];
    srcpkgVersion = match[2];
  }
  const artifact = new LocalArtifact(CATEGORIES.binaryPackage, {
    srcpkg_name: srcpkgName,
    srcpkg_version: srcpkgVersion,
    deb_fields: fields,
    deb_control_files: controlFiles,
  });
  await artifact.addLocalFile(file);
  return checked(artifact);
}

export async function createBinaryPackages(input: {
  srcpkgName: string;
  srcpkgVersion: string;
  version: string;
  architecture: string;
  files: string[];
}): Promise<LocalArtifact> {
  const artifact = new LocalArtifact(CATEGORIES.binaryPackages, {
    srcpkg_name: input.srcpkgName,
    srcpkg_version: input.srcpkgVersion,
    version: input.version,
    architecture: input.architecture,
    packages: input.files.map((f) => basename(f).split('_')[0] ?? ''),
  });
  for (const file of input.files) await artifact.addLocalFile(file);
  return checked(artifact);
}

export interface UploadInput {
  changesFile: string;
  /** Names (or paths) of listed files to leave out. */
  excludeFiles?: Iterable<string>;
  /** Listed files missing locally become remote files, which the server must have. */
  allowRemote?: boolean;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

export async function createUpload(input: UploadInput): Promise<LocalArtifact> {
  const changes = await readChanges(input.changesFile);
  const artifact = new LocalArtifact(CATEGORIES.upload, {
    type: 'dpkg',
    changes_fields: changes.fields,
  });
  await artifact.addLocalFile(input.changesFile, { contentType: TEXT_PLAIN });
  const dir = dirname(resolve(input.changesFile));
  const excluded = new Set([...(input.excludeFiles ?? [])].map((f) => basename(f)));
  // Like the Python client: files come from Checksums-Sha256 (with sizes and hashes for
  // remote entries; a .changes must have it, and it names the same files as Files).
  for (const entry of changes.sha256) {
    if (excluded.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (input.allowRemote && !(await exists(path))) {
      if (!entry.sha256) {
        throw new DebusineError(
          'validation',
          `${basename(input.changesFile)} has no Checksums-Sha256 entry for ${entry.name}: it cannot be a remote file`,
          { rule: 'upload.remote-needs-sha256', file: entry.name },
        );
      }
      artifact.addRemoteFile(entry.name, {
        size: entry.size,
        checksums: { sha256: entry.sha256 },
        type: 'file',
      });
    } else {
      await artifact.addLocalFile(path);
    }
  }
  return checked(artifact, { excludeFiles: excluded });
}

export async function createPackageBuildLog(input: {
  file: string;
  source: string;
  version: string;
  architecture?: string | null;
  bdUninstallable?: Record<string, unknown> | null;
}): Promise<LocalArtifact> {
  const artifact = new LocalArtifact(
    CATEGORIES.packageBuildLog,
    withoutNulls({
      source: input.source,
      version: input.version,
      architecture: input.architecture ?? null,
      filename: basename(input.file),
      bd_uninstallable: input.bdUninstallable ?? null,
    }),
  );
  await artifact.addLocalFile(input.file, { contentType: TEXT_PLAIN });
  validateLocalArtifact(artifact);
  return artifact;
}

/** Reads source, version and architecture from a sbuild log's name (`src_ver_arch.build`). */
export function buildLogNameParts(
  file: string,
): { source: string; version: string; architecture: string | null } | undefined {
  const match = /^([^_]+)_([^_]+)(?:_([^_]+))?\.build$/.exec(basename(file));
  if (!match?.[1] || !match[2]) return undefined;
  return { source: match[1], version: match[2], architecture: match[3] ?? null };
}
