/**
 * Where a `packageupload` step sends its upload, and what the app can say of it.
 *
 * Debusine's PackageUpload server task takes `target` (an `ftp://` or `sftp://` URL) and
 * `delayed_days` in its task data, sends every file of the `debian:upload` artifact it is
 * given (its id is `input_upload_id` in the dynamic task data), `.changes` last, and keeps
 * a `package-upload.log` ("Uploading <name>" per file) in its debug logs. It records
 * nothing else: the files sent are the files of that artifact, and the step's result says
 * whether all of them went.
 *
 * The target may carry a user and a password (Debusine does not treat them as secret);
 * the app never shows the password: it is left out of the target shown. The server's data is untrusted: a target that is not
 * text, or not a URL, is none.
 */
import type { ArtifactResponse } from '../models';

/**
 * The server task's name. The `package_upload` workflow makes one such step per upload;
 * the workflow itself is named with an underscore, the task without (Debusine's
 * `work_request_ensure_child_server(task_name="packageupload", …)`).
 */
export const PACKAGE_UPLOAD_TASK = 'packageupload';

/** The log of a packageupload step, in its debug logs artifact. */
export const PACKAGE_UPLOAD_LOG = 'package-upload.log';

/**
 * The URL the files go to, as the task makes it (`…/DELAYED/N-day` for a delayed
 * upload), without its password; null when the task data names none.
 */
export function uploadTarget(taskData: Record<string, unknown>): string | null {
  const raw = taskData.target;
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2000) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  url.password = '';
  let target = url.toString();
  const days = taskData.delayed_days;
  if (typeof days === 'number' && Number.isSafeInteger(days) && days >= 0) {
    target = `${target.replace(/\/+$/, '')}/DELAYED/${String(days)}-day`;
  }
  return target;
}

/** The id of the upload artifact the step sends, once the server has resolved it. */
export function uploadInputId(dynamicTaskData: Record<string, unknown> | null): number | null {
  const id = dynamicTaskData?.input_upload_id;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** The names of the files the step sends: the upload artifact's, `.changes` last. */
export function uploadFiles(upload: ArtifactResponse): string[] {
  return Object.keys(upload.files).sort(
    (a, b) =>
      Number(a.endsWith('.changes')) - Number(b.endsWith('.changes')) || a.localeCompare(b, 'en'),
  );
}
