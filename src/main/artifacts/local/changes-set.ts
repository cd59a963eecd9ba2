/**
 * What a .changes becomes on the server when dput-ng (or `debusine artifact import-debian`)
 * uploads it: the `debian:upload` itself, then for its Architecture `source` the
 * `debian:source-package` of its one .dsc, and for each other architecture one
 * `debian:binary-package` per listed `_ARCH.deb` or `_ARCH.udeb`; the upload then
 * `extends` and `relates-to` each of them (upload-engine.ts makes the relations).
 * Workflows find the source package through that relation: debian_pipeline refuses an
 * upload without it.
 *
 * The source package takes the .dsc and every file the .dsc lists from the .dsc's folder,
 * as dput-ng does: the .changes of a new Debian revision does not list the orig tarball,
 * which the source package needs all the same. A binary package whose .deb is not here
 * (the user left it out, or allow_remote made it a remote file) cannot be read, so it is
 * left out, and the note says so.
 */
import { DebusineError } from '../../../shared/errors';
import type { ControlFields } from './debian-files';
import { fieldString } from './debian-files';
import { CATEGORIES } from './kind-data';
import { createBinaryPackage, createSourcePackageForUpload } from './kinds-debian';
import type { LocalArtifact } from './local-artifact';

export interface ChangesSet {
  /** The upload first, then the packages, in dput-ng's order. */
  parts: LocalArtifact[];
  /** Packages the .changes names that are not made, and why. */
  notes: string[];
}

export function changesFieldsOf(upload: LocalArtifact): ControlFields {
  const fields = upload.data.changes_fields;
  return typeof fields === 'object' && fields !== null && !Array.isArray(fields)
    ? (fields as ControlFields)
    : {};
}

export async function changesSet(
  upload: LocalArtifact,
  options: { allowRemote?: boolean } = {},
): Promise<ChangesSet> {
  if (upload.category !== CATEGORIES.upload) return { parts: [upload], notes: [] };
  const fields = changesFieldsOf(upload);
  const architectures = (fieldString(fields, 'Architecture') ?? '').split(/\s+/).filter(Boolean);
  const listed = upload.paths();
  const parts: LocalArtifact[] = [upload];
  const notes: string[] = [];
  for (const architecture of architectures) {
    if (architecture === 'source') {
      const dscs = listed.filter((name) => name.endsWith('.dsc'));
      const [dsc] = dscs;
      if (dsc === undefined || dscs.length !== 1) {
        throw new DebusineError(
          'validation',
          `The .changes says Architecture: source but lists ${String(dscs.length)} .dsc files: it needs exactly one`,
          { rule: 'changes.one-dsc' },
        );
      }
      const local = upload.files.get(dsc);
      if (local === undefined) {
        notes.push(`No source package: ${dsc} is not uploaded from here`);
        continue;
      }
      parts.push(await createSourcePackageForUpload(local, options));
      continue;
    }
    const debs = listed.filter(
      (name) => name.endsWith(`_${architecture}.deb`) || name.endsWith(`_${architecture}.udeb`),
    );
    if (debs.length === 0) {
      notes.push(`The .changes says Architecture: ${architecture} but lists no package for it`);
    }
    for (const deb of debs) {
      const local = upload.files.get(deb);
      if (local === undefined) {
        notes.push(`No binary package for ${deb}: it is not uploaded from here`);
        continue;
      }
      parts.push(await createBinaryPackage(local));
    }
  }
  return { parts, notes };
}
