/**
 * The file name of a path inside an artifact: its last segment. Artifact paths are
 * `/`-separated on every platform (main checks them, src/main/artifacts/artifact-paths.ts),
 * so node's `basename`, which follows the platform's separators, is not the one for them;
 * and the renderer has no node.
 */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
