/**
 * Binary packages as a table: package, version, architecture and size, from the fields the
 * server read out of each .deb's control file (`data.deb_fields`). The server's data is
 * untrusted: a field that is missing or not text shows as null, never as a crash.
 */
import type { ArtifactResponse } from '../models';

export interface BinaryPackageRow {
  artifactId: number;
  /** The .deb's name in the artifact. */
  file: string;
  size: number;
  package: string | null;
  version: string | null;
  architecture: string | null;
  /** Installed-Size, in KiB as Debian states it. */
  installedKiB: number | null;
  /** True for -dbgsym packages (Auto-Built-Package: debug-symbols). */
  debugSymbols: boolean;
}

/** A server's field as text: null when missing, empty or not a string. */
export function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

export function binaryPackageRows(artifacts: readonly ArtifactResponse[]): BinaryPackageRow[] {
  const rows: BinaryPackageRow[] = [];
  for (const artifact of artifacts) {
    const raw = artifact.data.deb_fields;
    const fields: Record<string, unknown> =
      raw !== null && typeof raw === 'object' && !Array.isArray(raw)
        ? (raw as Record<string, unknown>)
        : {};
    for (const [file, meta] of Object.entries(artifact.files)) {
      if (!/\.u?deb$/.test(file)) continue;
      const installed = text(fields['Installed-Size']);
      rows.push({
        artifactId: artifact.id,
        file,
        size: meta.size,
        package: text(fields.Package),
        version: text(fields.Version),
        architecture: text(fields.Architecture),
        installedKiB: installed !== null && /^\d+$/.test(installed) ? Number(installed) : null,
        debugSymbols: fields['Auto-Built-Package'] === 'debug-symbols',
      });
    }
  }
  return rows.sort(
    (a, b) => Number(a.debugSymbols) - Number(b.debugSymbols) || a.file.localeCompare(b.file, 'en'),
  );
}
