/**
 * Which line of a running sbuild's live log says that the build is failing, before the
 * step ends. Only lines after which the build cannot succeed count:
 *
 * - `make: *** …` (no `[N]` after `make`): the top-level make, the one that runs
 *   debian/rules for dpkg-buildpackage, reports a target that failed. Every make below it
 *   (dh's, upstream's) runs with MAKELEVEL set and prints `make[N]:`, so those do not
 *   count: a sub-make's `*** … Error N` can be part of a build that succeeds (`make -k`
 *   with a fallback, `-$(MAKE) check`, `$(MAKE) … || true`, a test suite that is allowed to
 *   fail). An error make ignores is printed `make: [...] Error N (ignored)`, without the
 *   stars, and a line ending `(ignored)` never counts. Once the top-level make reports a
 *   failed target it exits non-zero (with `-k`, after the other targets), and so does
 *   dpkg-buildpackage.
 * - `dpkg-buildpackage: error: …`: dpkg-buildpackage itself gives up.
 * - `E: Build failure …`: sbuild's own verdict.
 *
 * A compiler's `error:` or a `dh_…: error` alone does not count: they too can be ignored
 * by the rules (`-dh_auto_test`, an override with `|| true`). The notification still
 * quotes the line where the build broke, as the analyser finds it (sbuild-log.ts), which
 * usually comes before the line that counts.
 */
const FAILING = [/^make: \*\*\* /, /^dpkg-buildpackage: error: /, /^E: Build failure\b/];

export function marksBuildFailing(text: string): boolean {
  if (/\(ignored\)\s*$/.test(text)) return false;
  return FAILING.some((re) => re.test(text));
}
