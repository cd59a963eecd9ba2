/**
 * Artifact categories and the `data` model of each, as the 0.16 server validates them
 * (extra keys refused; docs/debusine-server-facts.md). Checking locally turns the server's
 * terse 400 into an error that names the field before anything is sent.
 *
 * Fields that are optional and null are left out by the builders, so that the same data
 * also passes the 0.11 server's older models (which lack e.g. `architecture` on build logs).
 */
import { z } from 'zod';
import { LINTIAN_SEVERITIES } from '../../../shared/results/lintian';

export const CATEGORIES = {
  sourcePackage: 'debian:source-package',
  binaryPackage: 'debian:binary-package',
  binaryPackages: 'debian:binary-packages',
  upload: 'debian:upload',
  packageBuildLog: 'debian:package-build-log',
  autopkgtest: 'debian:autopkgtest',
  blhc: 'debian:blhc',
  debdiff: 'debian:debdiff',
  lintian: 'debian:lintian',
  piuparts: 'debian:piuparts',
  systemTarball: 'debian:system-tarball',
  repositoryIndex: 'debian:repository-index',
  signingInput: 'debusine:signing-input',
  signingOutput: 'debusine:signing-output',
  /** Earlier revision of the interface only; no server available here accepts it. */
  signingKey: 'debusine:signing-key',
  workRequestDebugLogs: 'debusine:work-request-debug-logs',
} as const;
export type KindName = keyof typeof CATEGORIES;

const record = z.record(z.string(), z.unknown());
const optionalString = z.string().nullable().optional();

export const KEY_PURPOSES = ['uefi', 'openpgp', 'openpgp-repository'] as const;

export const DATA_SCHEMAS: Record<KindName, z.ZodType> = {
  sourcePackage: z.strictObject({
    name: z.string(),
    version: z.string(),
    type: z.literal('dpkg'),
    dsc_fields: record,
  }),
  binaryPackage: z.strictObject({
    srcpkg_name: z.string(),
    srcpkg_version: z.string(),
    deb_fields: record,
    deb_control_files: z.array(z.string()),
  }),
  binaryPackages: z.strictObject({
    srcpkg_name: z.string(),
    srcpkg_version: z.string(),
    version: z.string(),
    architecture: z.string(),
    packages: z.array(z.string()),
  }),
  upload: z.strictObject({
    type: z.literal('dpkg'),
    changes_fields: record
      .refine((f) => 'Architecture' in f, 'changes_fields must contain Architecture')
      .refine((f) => 'Files' in f, 'changes_fields must contain Files'),
  }),
  packageBuildLog: z.strictObject({
    source: z.string(),
    version: z.string(),
    architecture: optionalString,
    filename: z.string(),
    bd_uninstallable: record.nullable().optional(),
  }),
  autopkgtest: z.strictObject({
    results: z.record(
      z.string(),
      z.strictObject({
        status: z.enum(['PASS', 'FAIL', 'FLAKY', 'SKIP']),
        details: optionalString,
      }),
    ),
    cmdline: z.string(),
    source_package: z.strictObject({ name: z.string(), version: z.string(), url: z.url() }),
    architecture: z.string(),
    distribution: z.string(),
  }),
  blhc: z.strictObject({
    source: optionalString,
    version: optionalString,
    architecture: optionalString,
  }),
  debdiff: z.strictObject({ original: z.string(), new: z.string(), label: optionalString }),
  lintian: z.strictObject({
    architecture: optionalString,
    summary: z.strictObject({
      tags_count_by_severity: z.partialRecord(z.enum(LINTIAN_SEVERITIES), z.number().int()),
      package_filename: z.record(z.string(), z.string()),
      tags_found: z.array(z.string()),
      overridden_tags_found: z.array(z.string()),
      lintian_version: z.string(),
      distribution: z.string(),
    }),
  }),
  piuparts: z.strictObject({
    piuparts_version: z.string(),
    binary_packages: z.record(z.string(), z.string()),
    architecture: z.string(),
    distribution: z.string(),
  }),
  systemTarball: z.strictObject({
    filename: z.string(),
    vendor: z.string(),
    codename: z.string(),
    mirror: z.url(),
    components: z.array(z.string()),
    variant: optionalString,
    pkglist: z.record(z.string(), z.string()),
    architecture: z.string(),
    with_dev: z.boolean(),
    with_init: z.boolean(),
  }),
  repositoryIndex: z.strictObject({ path: z.string().nullable() }),
  signingInput: z.strictObject({
    trusted_certs: z.array(z.string()).nullable().optional(),
    binary_package_name: optionalString,
  }),
  signingOutput: z.strictObject({
    purpose: z.enum(KEY_PURPOSES),
    fingerprint: z.string(),
    results: z.array(
      z.strictObject({
        file: z.string(),
        output_file: optionalString,
        error_message: optionalString,
      }),
    ),
    binary_package_name: optionalString,
  }),
  signingKey: z.strictObject({
    purpose: z.enum(KEY_PURPOSES),
    fingerprint: z.string(),
    public_key: z.string(),
  }),
  workRequestDebugLogs: z.strictObject({}),
};

export function kindOfCategory(category: string): KindName | undefined {
  return (Object.keys(CATEGORIES) as KindName[]).find((k) => CATEGORIES[k] === category);
}

/** Drops keys whose value is null or undefined (see the module comment). */
export function withoutNulls<T extends Record<string, unknown>>(data: T): T {
  return Object.fromEntries(
    Object.entries(data).filter(([, v]) => v !== null && v !== undefined),
  ) as T;
}
