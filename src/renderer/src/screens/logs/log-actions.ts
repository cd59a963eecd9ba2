/**
 * What the viewer's toolbar does outside the lines: copy lines (read again from main, as
 * the renderer holds only what is near the screen), download the file, and open it in
 * the server's web UI.
 */
import { useCallback } from 'react';
import type { BridgeClient } from '@shared/contract';
import { baseName } from '@shared/base-name';
import { useBridge } from '@renderer/bridge';

/** At most this many lines go to the clipboard at once (main's own limit per request). */
export const MAX_COPY_LINES = 2000;

/** The text of lines `from`..`to` (inclusive, at most MAX_COPY_LINES), one per line. */
export async function readLines(
  bridge: BridgeClient,
  handle: string,
  from: number,
  to: number,
): Promise<string> {
  const last = Math.min(to, from + MAX_COPY_LINES - 1);
  const out: string[] = [];
  let at = from;
  while (at <= last) {
    const window = await bridge.logs.lines({ handle, from: at, count: last - at + 1 });
    // Fewer lines than asked: the byte budget, or the end of what was read so far.
    if (window.lines.length === 0) break;
    for (const line of window.lines) out.push(line.text);
    at += window.lines.length;
  }
  return out.join('\n');
}

/**
 * Downloads the file: main's save dialog then main's download (Electron), or a one-time
 * link handed to the browser (web host). Resolves to what to tell the user.
 */
export function useDownloadFile(artifactId: number, path: string): () => Promise<string> {
  const bridge = useBridge();
  return useCallback(async () => {
    if (bridge.transport === 'web') {
      const link = await bridge.downloads.link({ artifactId, path });
      const a = document.createElement('a');
      a.href = link.url;
      a.download = link.name;
      a.rel = 'noopener';
      a.style.display = 'none';
      document.body.append(a);
      a.click();
      a.remove();
      return `Handed ${link.name} to the browser.`;
    }
    const destination = await bridge.downloads.chooseDestination({
      kind: 'file',
      suggestedName: baseName(path),
    });
    if (destination === null) return '';
    await bridge.downloads.file({ artifactId, path, destinationId: destination.destinationId });
    return `Downloading to ${destination.label}…`;
  }, [bridge, artifactId, path]);
}
