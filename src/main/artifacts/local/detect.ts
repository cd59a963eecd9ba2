/**
 * Kind detection for dropped paths: a `.changes` becomes an upload of the files it lists,
 * a `.dsc` a source package, `.deb`s binary packages, a `.build` a package build log.
 * The result says what was chosen and why, and which files are missing or left over, so
 * that the UI can show it before anything is uploaded.
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { DebusineError, serializeError, type SerializedError } from '../../../shared/errors';
import { readDebControl } from '../formats/deb-package';
import { getField } from '../formats/deb822';
import { readChanges, readDsc } from './debian-files';
import { CATEGORIES, type KindName } from './kind-data';
import {
  buildLogNameParts,
  createBinaryPackage,
  createBinaryPackages,
  createPackageBuildLog,
  createSourcePackageFromDsc,
  createUpload,
} from './kinds-debian';
import type { LocalArtifact } from './local-artifact';

export interface Detection {
  kind: KindName | null;
  category: string | null;
  /** One sentence: what was chosen and why. */
  reason: string;
  /** Files the artifact takes (absolute paths). */
  files: string[];
  /** Files the chosen kind needs but that are not there (names). */
  missing: string[];
  /** Dropped files the artifact does not take. */
  extra: string[];
  /** The built artifact, when the files satisfy the kind's rules. */
  artifact: LocalArtifact | null;
  /** Why the artifact could not be built. */
  error: SerializedError | null;
}

async function expand(paths: readonly string[]): Promise<string[]> {
  const files = new Set<string>();
  for (const path of paths) {
    const absolute = resolve(path);
    const info = await stat(absolute).catch(() => undefined);
    if (!info) {
      throw new DebusineError('validation', `Dropped path "${path}" does not exist`, {
        file: path,
        rule: 'file-exists',
      });
    }
    if (info.isDirectory()) {
      for (const entry of await readdir(absolute, { withFileTypes: true })) {
        if (entry.isFile()) files.add(join(absolute, entry.name));
      }
    } else if (info.isFile()) {
      files.add(absolute);
    }
  }
  return [...files].sort();
}

async function attempt(
  base: Omit<Detection, 'artifact' | 'error'>,
  build: () => Promise<LocalArtifact>,
): Promise<Detection> {
  try {
    return { ...base, artifact: await build(), error: null };
  } catch (error) {
    return { ...base, artifact: null, error: serializeError(error) };
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

async function missingOf(dir: string, names: string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const name of names) {
    if (!(await stat(join(dir, name)).catch(() => undefined))) missing.push(name);
  }
  return missing;
}

export async function detectKind(
  paths: readonly string[],
  options: { allowRemote?: boolean } = {},
): Promise<Detection> {
  const files = await expand(paths);
  const ending = (suffix: string) => files.filter((f) => f.endsWith(suffix));
  const changes = ending('.changes');
  const dscs = ending('.dsc');
  const debs = files.filter((f) => f.endsWith('.deb') || f.endsWith('.udeb'));
  const builds = ending('.build');

  const many = (what: string, list: string[]): Detection => ({
    kind: null,
    category: null,
    reason: `${String(list.length)} ${what} files were dropped (${list.map((f) => basename(f)).join(', ')}); drop one at a time`,
    files: [],
    missing: [],
    extra: files,
    artifact: null,
    error: null,
  });

  // A control file takes the files it lists (those here, and those missing from its folder);
  // the other dropped files are extra.
  const listedBy = async (control: string, names: string[]) => {
    const dir = dirname(control);
    const taken = [control, ...names.map((n) => join(dir, n))];
    const missing = await missingOf(dir, names);
    return {
      files: taken.filter((f) => !missing.includes(basename(f))),
      missing,
      extra: files.filter((f) => !taken.includes(f)),
    };
  };

  // A control file that cannot be read is the chosen kind's problem, shown next to it.
  const unreadable = (
    kind: 'upload' | 'sourcePackage',
    file: string,
    error: unknown,
  ): Detection => ({
    kind,
    category: CATEGORIES[kind],
    reason: `${basename(file)} is a ${extname(file)} file, but it cannot be used`,
    files: [file],
    missing: [],
    extra: files.filter((f) => f !== file),
    artifact: null,
    error: serializeError(error),
  });

  if (changes.length > 1) return many('.changes', changes);
  const changesFile = changes[0];
  if (changesFile) {
    const parsed = await readChanges(changesFile).catch(asError);
    if (parsed instanceof Error) return unreadable('upload', changesFile, parsed);
    const names = (parsed.sha256.length ? parsed.sha256 : parsed.files).map((f) => f.name);
    return attempt(
      {
        kind: 'upload',
        category: CATEGORIES.upload,
        reason: `${basename(changesFile)} is a .changes file: an upload of it and the ${String(names.length)} files it lists`,
        ...(await listedBy(changesFile, names)),
      },
      () => createUpload({ changesFile, allowRemote: options.allowRemote ?? false }),
    );
  }
  if (dscs.length > 1) return many('.dsc', dscs);
  const dscFile = dscs[0];
  if (dscFile) {
    const parsed = await readDsc(dscFile).catch(asError);
    if (parsed instanceof Error) return unreadable('sourcePackage', dscFile, parsed);
    const names = parsed.files.map((f) => f.name);
    return attempt(
      {
        kind: 'sourcePackage',
        category: CATEGORIES.sourcePackage,
        reason: `${basename(dscFile)} is a .dsc file: a source package of it and the ${String(names.length)} files it lists`,
        ...(await listedBy(dscFile, names)),
      },
      () => createSourcePackageFromDsc(dscFile),
    );
  }
  const firstDeb = debs[0];
  if (firstDeb && debs.length === 1) {
    return attempt(
      {
        kind: 'binaryPackage',
        category: CATEGORIES.binaryPackage,
        reason: `${basename(firstDeb)} is a single binary package`,
        files: debs,
        missing: [],
        extra: files.filter((f) => f !== firstDeb),
      },
      () => createBinaryPackage(firstDeb),
    );
  }
  if (firstDeb) {
    const control = await readDebControl(firstDeb);
    const source = getField(control.fields, 'Source') ?? getField(control.fields, 'Package') ?? '';
    const match = /^(.*) \((.*)\)$/.exec(source);
    const version = getField(control.fields, 'Version') ?? '';
    const arch = getField(control.fields, 'Architecture') ?? '';
    return attempt(
      {
        kind: 'binaryPackages',
        category: CATEGORIES.binaryPackages,
        reason: `${String(debs.length)} .deb/.udeb files: binary packages of source ${match?.[1] ?? source} (from ${basename(firstDeb)})`,
        files: debs,
        missing: [],
        extra: files.filter((f) => !debs.includes(f)),
      },
      () =>
        createBinaryPackages({
          srcpkgName: match?.[1] ?? source,
          srcpkgVersion: match?.[2] ?? version,
          version,
          architecture: arch,
          files: debs,
        }),
    );
  }
  if (builds.length > 1) return many('.build', builds);
  const buildFile = builds[0];
  if (buildFile) {
    const parts = buildLogNameParts(buildFile);
    const base = {
      kind: 'packageBuildLog' as const,
      category: CATEGORIES.packageBuildLog,
      reason:
        `${basename(buildFile)} is a build log` +
        (parts ? ` of ${parts.source} ${parts.version}` : ''),
      files: [buildFile],
      missing: [],
      extra: files.filter((f) => f !== buildFile),
    };
    if (!parts) {
      return {
        ...base,
        artifact: null,
        error: {
          code: 'validation',
          message: `Cannot tell source and version from "${basename(buildFile)}" (expected source_version_arch.build)`,
          details: { rule: 'package-build-log.name', file: buildFile },
        },
      };
    }
    return attempt(base, () => createPackageBuildLog({ file: buildFile, ...parts }));
  }
  return {
    kind: null,
    category: null,
    reason: 'No .changes, .dsc, .deb/.udeb or .build file among the dropped files',
    files: [],
    missing: [],
    extra: files,
    artifact: null,
    error: null,
  };
}
