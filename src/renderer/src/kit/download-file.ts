/**
 * Saving artifacts' files: the one way the app does it, wherever the button is (an
 * artifact's page and its file table, a log, a build's packages). It asks downloads.save
 * of the server the page is on, which each host answers its own way (app.info's
 * `saveDownload`): main asks where in its dialog and downloads there, reporting progress
 * (`dialog`); or a one-time link is handed to the browser's own download (`browser`).
 * Several files go into one folder where the host can choose one, and one by one where it
 * cannot.
 */
import { useCallback, useState } from 'react';
import { baseName } from '@shared/base-name';
import type { AppCapabilities, DownloadJob, RequestArgs, SavedDownload } from '@shared/contract';
import { useCapabilities } from '@renderer/queries/app';
import { downloadMutations, useDownloadJobs } from '@renderer/queries/downloads';
import { useMutationOf } from '@renderer/queries/hooks';

/** A file of an artifact. */
export interface ArtifactFile {
  artifactId: number;
  path: string;
}

/**
 * What to save: one file, an artifact as its .tar.gz, or several files at once. Where the
 * host has a folder to choose, several files are saved as the artifacts they are of, whole,
 * in one folder; otherwise each on its own.
 */
export type SaveWhat =
  { file: ArtifactFile } | { tarball: number } | { files: readonly ArtifactFile[] };

/** One downloads.save: what it is called on screen, and its arguments. */
interface PlannedSave {
  key: string;
  label: string;
  args: RequestArgs<'downloads.save'>;
}

function fileSave(server: string, file: ArtifactFile): PlannedSave {
  return {
    key: `file:${String(file.artifactId)}:${file.path}`,
    label: baseName(file.path),
    args: { what: 'file', server, ...file },
  };
}

/**
 * The downloads.save requests that save `what` on this host; `how` it saves matters only
 * to several files, and is undefined until the host has said.
 */
function plan(
  server: string,
  what: SaveWhat,
  how: AppCapabilities['saveDownload'] | undefined,
): PlannedSave[] {
  if ('file' in what) return [fileSave(server, what.file)];
  if ('tarball' in what) {
    const artifactId = what.tarball;
    return [
      {
        key: `tarball:${String(artifactId)}`,
        label: `artifact-${String(artifactId)}.tar.gz`,
        args: { what: 'tarball', server, artifactId },
      },
    ];
  }
  if (how === undefined) throw new Error('Not ready to download several files yet: try again.');
  if (how === 'browser') return what.files.map((file) => fileSave(server, file));
  const artifactIds = [...new Set(what.files.map((file) => file.artifactId))];
  const [only] = artifactIds;
  return [
    {
      key: `folder:${artifactIds.join(',')}`,
      label:
        artifactIds.length === 1 && only !== undefined
          ? `All files of artifact ${String(only)}`
          : `${String(artifactIds.length)} artifacts`,
      args: { what: 'folder', server, artifactIds },
    },
  ];
}

/** What saving did, in words for a status line; null when the user closed the dialog. */
function told(
  done: readonly { planned: PlannedSave; saved: SavedDownload | null }[],
): string | null {
  const browser = done.flatMap(({ saved }) => (saved?.savedBy === 'browser' ? [saved.name] : []));
  const [name] = browser;
  if (browser.length === 1 && name !== undefined) return `Handed ${name} to the browser.`;
  if (browser.length > 1) return `Handed ${String(browser.length)} files to the browser.`;
  const app = done.flatMap(({ planned, saved }) =>
    saved?.savedBy === 'app' ? [`${planned.label} to ${saved.destination}`] : [],
  );
  return app.length === 0 ? null : `Downloading ${app.join(', ')}…`;
}

/**
 * Plans and runs saves of the page's server (`server`, its profile id). `severalReady`:
 * several files can be saved at once, as the host has said how it saves them.
 */
function useSaver(server: string | null) {
  const how = useCapabilities()?.saveDownload;
  const save = useMutationOf(downloadMutations.save).mutateAsync;
  const planned = useCallback(
    (what: SaveWhat): PlannedSave[] => {
      if (server === null) throw new Error('This page is on no server: open it again.');
      return plan(server, what, how);
    },
    [server, how],
  );
  return { severalReady: server !== null && how !== undefined, plan: planned, save };
}

/**
 * Saves from a button that tells the outcome in a status line: resolves to what happened,
 * or to null when the user closed the dialog.
 */
export function useSaveArtifacts(server: string | null): {
  save: (what: SaveWhat) => Promise<string | null>;
  /** Several files can be saved at once (the host has said how). */
  severalReady: boolean;
} {
  const { plan: planSaves, save: run, severalReady } = useSaver(server);
  const save = useCallback(
    async (what: SaveWhat): Promise<string | null> => {
      const done: { planned: PlannedSave; saved: SavedDownload | null }[] = [];
      for (const planned of planSaves(what)) done.push({ planned, saved: await run(planned.args) });
      return told(done);
    },
    [planSaves, run],
  );
  return { save, severalReady };
}

/** A save on a page that lists them: with main's job, or handed to the browser. */
export interface DownloadRow {
  key: string;
  label: string;
  /** Main's download, as it last reported it; null until it started, and in a browser. */
  job: DownloadJob | null;
  /** Handed to the browser, which shows its own progress. */
  handedToBrowser: boolean;
  error: unknown;
}

type Row = Omit<DownloadRow, 'job'> & { jobId: string | null };

/**
 * Saves listed on the page with their progress (the artifact page's downloads): one row
 * per request, which the user can cancel while main downloads, and dismiss.
 */
export function useDownloadRows(server: string | null): {
  /** Several files can be saved at once (the host has said how). */
  severalReady: boolean;
  rows: DownloadRow[];
  save: (what: SaveWhat) => void;
  cancel: (key: string) => void;
  dismiss: (key: string) => void;
} {
  const saver = useSaver(server);
  const jobs = useDownloadJobs();
  const cancelJob = useMutationOf(downloadMutations.cancel).mutateAsync;
  const [rows, setRows] = useState<Row[]>([]);

  const put = useCallback((key: string, patch: Partial<Row>) => {
    setRows((current) => {
      if (!current.some((r) => r.key === key)) {
        const row: Row = { key, label: key, jobId: null, handedToBrowser: false, error: null };
        return [...current, { ...row, ...patch }];
      }
      return current.map((r) => (r.key === key ? { ...r, ...patch } : r));
    });
  }, []);
  const dismiss = useCallback((key: string) => {
    setRows((current) => current.filter((r) => r.key !== key));
  }, []);

  const { plan: planSaves, save: run } = saver;
  const start = useCallback(
    async (planned: PlannedSave): Promise<void> => {
      const { key, label } = planned;
      put(key, { label, jobId: null, handedToBrowser: false, error: null });
      try {
        const saved = await run(planned.args);
        if (saved === null) dismiss(key);
        else if (saved.savedBy === 'browser') put(key, { handedToBrowser: true });
        else {
          // A row is one artifact's save, so one job: several are one save's only in a
          // folder of several artifacts, which no listing page asks for.
          put(key, {
            label: `${label} → ${saved.destination}`,
            jobId: saved.jobs[0]?.jobId ?? null,
          });
        }
      } catch (error) {
        put(key, { error });
      }
    },
    [run, put, dismiss],
  );
  const save = useCallback(
    (what: SaveWhat) => {
      let planned: PlannedSave[];
      try {
        planned = planSaves(what);
      } catch (error) {
        // Asked before the page can save: the list says why.
        put('not-ready', { label: 'Download', error });
        return;
      }
      for (const one of planned) void start(one);
    },
    [planSaves, start, put],
  );
  const cancel = useCallback(
    (key: string) => {
      const jobId = rows.find((r) => r.key === key)?.jobId;
      if (jobId === null || jobId === undefined) return;
      cancelJob(jobId).catch((error: unknown) => {
        put(key, { error });
      });
    },
    [rows, cancelJob, put],
  );

  return {
    severalReady: saver.severalReady,
    rows: rows.map(({ jobId, ...row }) => ({
      ...row,
      job: jobId === null ? null : (jobs[jobId] ?? null),
    })),
    save,
    cancel,
    dismiss,
  };
}
