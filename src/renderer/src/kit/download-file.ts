/**
 * Saving artifact files from anywhere in the app: on the web host, a one-time same-origin
 * link handed to the browser's own download; in Electron, main's save dialog, then main's
 * verified download. Returns what happened in words for the caller to show.
 */
import type { BridgeClient } from '@shared/contract';
import { baseName } from '@shared/base-name';

/** Hands a URL to the browser's own download machinery (web host). */
export function saveThroughBrowser(url: string, name: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
}

/** Saves one file of an artifact; null when the user cancelled the dialog. */
export async function saveArtifactFile(
  bridge: BridgeClient,
  artifactId: number,
  path: string,
): Promise<string | null> {
  if (bridge.transport === 'web') {
    const link = await bridge.downloads.link({ artifactId, path });
    saveThroughBrowser(link.url, link.name);
    return `${link.name}: handed to the browser`;
  }
  const destination = await bridge.downloads.chooseDestination({
    kind: 'file',
    suggestedName: baseName(path),
  });
  if (destination === null) return null;
  await bridge.downloads.file({ artifactId, path, destinationId: destination.destinationId });
  return `${baseName(path)} → ${destination.label}`;
}

/**
 * Saves these files, each of its artifact: the browser gets one link per file; Electron
 * asks for one folder and unpacks each artifact there.
 */
export async function saveArtifactFiles(
  bridge: BridgeClient,
  files: readonly { artifactId: number; path: string }[],
): Promise<string | null> {
  if (bridge.transport === 'web') {
    for (const file of files) {
      const link = await bridge.downloads.link({ artifactId: file.artifactId, path: file.path });
      saveThroughBrowser(link.url, link.name);
    }
    return `${String(files.length)} files handed to the browser`;
  }
  const destination = await bridge.downloads.chooseDestination({ kind: 'directory' });
  if (destination === null) return null;
  const artifacts = [...new Set(files.map((f) => f.artifactId))];
  for (const artifactId of artifacts) {
    await bridge.downloads.all({
      artifactId,
      destinationId: destination.destinationId,
      tarball: false,
    });
  }
  return `${String(artifacts.length)} artifacts → ${destination.label}`;
}
