/**
 * Paths of pages in Debusine's web UI, for "Open in browser". Main turns a path into a URL
 * on the active server (`links.webui`), so a path here never names another site.
 */

/** The scope a server uses when a request names none (Debusine's default scope). */
export const DEFAULT_SCOPE = 'debusine';

/**
 * An artifact's page: the `url` the server sends (0.16), else built from its fields, as
 * older servers (0.11) send no `url`; their pages are under the scope too.
 */
export function artifactWebPath(
  artifact: { id: number; workspace: string; url?: string | null | undefined },
  scope: string | null,
): string {
  return (
    artifact.url ??
    `/${scope ?? DEFAULT_SCOPE}/${artifact.workspace}/artifact/${String(artifact.id)}/`
  );
}

/** A work request's page: the `url` the server sends (0.16), else built from its fields. */
export function workRequestWebPath(workRequest: {
  id: number;
  workspace: string;
  scope?: string | null | undefined;
  url?: string | null | undefined;
}): string {
  return (
    workRequest.url ??
    `/${workRequest.scope ?? DEFAULT_SCOPE}/${workRequest.workspace}/work-request/${String(workRequest.id)}/`
  );
}

/**
 * A file's page: the artifact's page, then `file/` and the path, each segment encoded
 * (the server's `artifact/<id>/file/<path>` route).
 */
export function webFilePath(artifactPage: string, path: string): string {
  const base = artifactPage.endsWith('/') ? artifactPage : `${artifactPage}/`;
  return `${base}file/${path.split('/').map(encodeURIComponent).join('/')}`;
}
