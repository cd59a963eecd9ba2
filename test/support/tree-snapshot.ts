/**
 * What a folder holds, recursively, without following a single link: each entry's type,
 * size, link target and a hash of its content. Two snapshots are equal exactly when a
 * download left nothing behind (no file, folder, link or staging leftover, no changed byte).
 */
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { STAGING_MARKER } from '../../src/main/artifacts/transfer/staging';

export interface TreeEntry {
  path: string;
  type: 'file' | 'dir' | 'link' | 'other';
  size: number;
  target?: string;
  sha256?: string;
}

export function snapshotTree(root: string): TreeEntry[] {
  const entries: TreeEntry[] = [];
  const walk = (dir: string, prefix: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      const path = prefix + name;
      const stat = lstatSync(full);
      if (stat.isSymbolicLink()) {
        entries.push({ path, type: 'link', size: stat.size, target: readlinkSync(full) });
      } else if (stat.isDirectory()) {
        entries.push({ path, type: 'dir', size: 0 });
        walk(full, `${path}/`);
      } else if (stat.isFile()) {
        const sha256 = createHash('sha256').update(readFileSync(full)).digest('hex');
        entries.push({ path, type: 'file', size: stat.size, sha256 });
      } else {
        entries.push({ path, type: 'other', size: stat.size });
      }
    }
  };
  walk(root, '');
  return entries;
}

/** Bytes held by regular files under `root` (links not followed). */
export function bytesUnder(root: string): number {
  let total = 0;
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return; // removed while we looked: a staging folder being cleaned up
    }
    for (const name of names) {
      const full = join(dir, name);
      try {
        const stat = lstatSync(full);
        if (stat.isDirectory()) walk(full);
        // A staging folder's marker is the app's own note, not downloaded data.
        else if (stat.isFile() && name !== STAGING_MARKER) total += stat.size;
      } catch {
        // the same race as above
      }
    }
  };
  walk(root);
  return total;
}

/**
 * Samples `bytesUnder(root)` every few milliseconds while a download runs; `stop()` gives
 * the most bytes ever seen above what `root` held at the start. The download runs on the
 * same event loop, so a sample can only miss what is written between two ticks: a download
 * that writes megabytes past a declared size is seen doing it.
 */
export function watchDiskUse(root: string, everyMs = 2): { stop(): number } {
  const start = bytesUnder(root);
  let most = start;
  const sample = (): void => {
    most = Math.max(most, bytesUnder(root));
  };
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return most - start;
    },
  };
}
