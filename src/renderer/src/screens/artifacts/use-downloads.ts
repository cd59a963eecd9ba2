import { useCallback, useEffect, useState } from 'react';
import type { DownloadJob } from '@shared/contract';
import { baseName } from '@shared/base-name';
import { useBridge } from '@renderer/bridge';
import { saveThroughBrowser } from '@renderer/kit/download-file';

export interface DownloadRow {
  key: string;
  label: string;
  job: DownloadJob | null;
  /** Web host: handed to the browser, which shows its own progress. */
  handedToBrowser: boolean;
  error: unknown;
}

/**
 * Downloads of one artifact's files. Electron: main's save dialog, then main downloads with
 * progress events. Web host: a one-time same-origin link handed to the browser.
 */
export function useArtifactDownloads(artifactId: number) {
  const bridge = useBridge();
  const [rows, setRows] = useState<DownloadRow[]>([]);
  const web = bridge.transport === 'web';

  const put = useCallback((key: string, patch: Partial<DownloadRow>) => {
    setRows((current) => {
      const found = current.find((r) => r.key === key);
      if (!found) {
        return [
          ...current,
          { key, label: key, job: null, handedToBrowser: false, error: null, ...patch },
        ];
      }
      return current.map((r) => (r.key === key ? { ...r, ...patch } : r));
    });
  }, []);

  useEffect(() => {
    if (web) return;
    const onJob = (job: DownloadJob): void => {
      if (job.artifactId !== artifactId) return;
      setRows((current) => current.map((r) => (r.job?.jobId === job.jobId ? { ...r, job } : r)));
    };
    const offs = [bridge.on('download.progress', onJob), bridge.on('download.finished', onJob)];
    return () => {
      for (const off of offs) off();
    };
  }, [bridge, artifactId, web]);

  const run = useCallback(
    async (key: string, label: string, what: { path?: string; tarball?: boolean }) => {
      put(key, { label, error: null, job: null, handedToBrowser: false });
      try {
        if (web) {
          const link = await bridge.downloads.link({
            artifactId,
            ...(what.path ? { path: what.path } : {}),
          });
          saveThroughBrowser(link.url, link.name);
          put(key, { handedToBrowser: true });
          return;
        }
        const destination = await bridge.downloads.chooseDestination(
          what.path
            ? { kind: 'file', suggestedName: baseName(what.path) }
            : what.tarball
              ? { kind: 'file', suggestedName: `artifact-${String(artifactId)}.tar.gz` }
              : { kind: 'directory' },
        );
        if (destination === null) {
          setRows((current) => current.filter((r) => r.key !== key));
          return;
        }
        const job = what.path
          ? await bridge.downloads.file({
              artifactId,
              path: what.path,
              destinationId: destination.destinationId,
            })
          : await bridge.downloads.all({
              artifactId,
              destinationId: destination.destinationId,
              tarball: what.tarball ?? false,
            });
        put(key, { job, label: `${label} → ${destination.label}` });
      } catch (error) {
        put(key, { error });
      }
    },
    [bridge, artifactId, web, put],
  );

  return {
    web,
    rows,
    downloadFile: (path: string) => void run(`file:${path}`, baseName(path), { path }),
    downloadAll: (tarball: boolean) =>
      void run(
        tarball ? 'all:tarball' : 'all:extracted',
        tarball
          ? `artifact-${String(artifactId)}.tar.gz`
          : `All files of artifact ${String(artifactId)}`,
        { tarball },
      ),
    dismiss: (key: string) => {
      setRows((current) => current.filter((r) => r.key !== key));
    },
    cancel: (key: string) => {
      const jobId = rows.find((r) => r.key === key)?.job?.jobId;
      if (jobId === undefined) return;
      bridge.downloads.cancel({ jobId }).then(
        (job) => {
          put(key, { job });
        },
        (error: unknown) => {
          put(key, { error });
        },
      );
    },
  };
}
