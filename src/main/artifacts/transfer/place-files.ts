/**
 * Moving verified files from the staging folder into the destination, all or nothing.
 *
 * Nothing is ever written or created through a link the destination already holds: a
 * link where a folder of the artifact goes, or where one of its files goes, refuses the
 * whole download (rule `destination-link`). Replacing the link instead was rejected: the
 * link is the user's, and deleting it to make room would destroy something they made;
 * following it would write wherever it points. An existing file is never replaced either
 * (rule `destination-exists`; files are placed with link(), which fails rather than
 * overwrite); existing real folders are merged into.
 *
 * Every place is checked before the download starts (so a conflict costs no transfer),
 * and again as the files are placed. A folder the destination lacks is moved in whole,
 * one rename for all its files. If placing fails half-way, everything placed so far is
 * moved back, so the destination is left as it was.
 */
import { link, lstat, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { downloadError, type Subject } from './download-errors';

/** Where a staged file goes below the destination, as path segments. */
export type Placement = string[];

type Kind = 'missing' | 'dir' | 'link' | 'other';

async function kindOf(path: string): Promise<Kind> {
  try {
    const stat = await lstat(path);
    return stat.isSymbolicLink() ? 'link' : stat.isDirectory() ? 'dir' : 'other';
  } catch (error) {
    // ENOTDIR: a folder above is a file; creating the staging folder will say so.
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing';
    throw error;
  }
}

function refuse(subject: Subject, path: string, kind: Kind, asFolder: boolean) {
  const what = `Cannot place ${subject.file ?? 'the download'} of artifact ${String(subject.artifact)}`;
  if (kind === 'link') {
    return downloadError(
      'conflict',
      subject,
      'destination-link',
      `${what}: ${path} is a symbolic link, and downloads never write through links`,
      { target: path },
    );
  }
  const why = asFolder ? 'is in the way of a folder of the artifact' : 'already exists';
  return downloadError('conflict', subject, 'destination-exists', `${what}: ${path} ${why}`, {
    target: path,
  });
}

/**
 * Walks the destination along each placement: every folder on the way must be missing or
 * a real folder, and the file itself missing. `reserved` is the staging folder's name.
 */
export async function checkPlacements(
  destination: string,
  placements: Placement[],
  subjectOf: (p: Placement) => Subject,
  reserved?: string,
): Promise<void> {
  const known = new Map<string, Kind>();
  for (const placement of placements) {
    let dir = destination;
    for (const [i, segment] of placement.entries()) {
      const path = join(dir, segment);
      let kind = known.get(path);
      if (kind === undefined) {
        kind = i === 0 && segment === reserved ? 'other' : await kindOf(path);
        known.set(path, kind);
      }
      if (kind === 'missing') break;
      const last = i === placement.length - 1;
      if (last || kind !== 'dir') throw refuse(subjectOf(placement), path, kind, !last);
      dir = path;
    }
  }
}

interface Folder {
  files: Map<string, Placement>;
  folders: Map<string, Folder>;
  /** A placement below, for messages about this folder. */
  example: Placement;
}

function treeOf(placements: Placement[]): Folder {
  const root: Folder = { files: new Map(), folders: new Map(), example: placements[0] ?? [] };
  for (const placement of placements) {
    let folder = root;
    for (const segment of placement.slice(0, -1)) {
      let next = folder.folders.get(segment);
      if (!next) {
        next = { files: new Map(), folders: new Map(), example: placement };
        folder.folders.set(segment, next);
      }
      folder = next;
    }
    folder.files.set(placement.at(-1) ?? '', placement);
  }
  return root;
}

const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);
const TAKEN = new Set(['EEXIST', 'ENOTEMPTY', 'ENOTDIR']);

/**
 * Moves every staged file (at `staged` + its segments) to `destination` + its segments,
 * or none: on failure, moves back what it placed and rethrows.
 */
export async function placeAll(
  staged: string,
  destination: string,
  placements: Placement[],
  subjectOf: (p: Placement) => Subject,
  reserved: string,
): Promise<void> {
  await checkPlacements(destination, placements, subjectOf, reserved);
  const undo: (() => Promise<void>)[] = [];

  const placeFile = async (from: string, to: string, placement: Placement) => {
    try {
      await link(from, to);
      undo.push(() => unlink(to));
      return;
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      if (code === 'EEXIST') throw refuse(subjectOf(placement), to, await kindOf(to), false);
      if (!NO_HARD_LINKS.has(code)) throw error;
    }
    // File systems without hard links (FAT, some network shares): rename, which would
    // replace a file, so only once the place is known to be free.
    const kind = await kindOf(to);
    if (kind !== 'missing') throw refuse(subjectOf(placement), to, kind, false);
    await rename(from, to);
    undo.push(() => rename(to, from));
  };

  const placeFolder = async (folder: Folder, from: string, to: string): Promise<void> => {
    for (const [name, placement] of folder.files) {
      await placeFile(join(from, name), join(to, name), placement);
    }
    for (const [name, sub] of folder.folders) {
      const source = join(from, name);
      const target = join(to, name);
      let kind = await kindOf(target);
      if (kind === 'missing') {
        try {
          // rename() never follows a link at `target`; it fails when something is there,
          // except an empty folder, which it replaces (nothing is lost).
          await rename(source, target);
          undo.push(() => rename(target, source));
          continue;
        } catch (error) {
          if (!TAKEN.has((error as { code?: string }).code ?? '')) throw error;
          kind = await kindOf(target);
        }
      }
      if (kind !== 'dir') throw refuse(subjectOf(sub.example), target, kind, true);
      await placeFolder(sub, source, target);
    }
  };

  try {
    await placeFolder(treeOf(placements), staged, destination);
  } catch (error) {
    for (const step of undo.reverse()) await step().catch(() => undefined);
    throw error;
  }
}
