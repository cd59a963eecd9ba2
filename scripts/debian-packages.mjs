// The Debian packages `npm test` needs, installed when missing: as root with apt-get (one
// line says which), otherwise a one-line refusal naming the exact command to run.
import { spawnSync } from 'node:child_process';

/**
 * The packages of each group of tests (neededGroups), in the order they are installed. Unit
 * tests build Debian fixtures (dpkg-dev, fakeroot, xz-utils, zstd) and sign them with debsign
 * (devscripts) and gpg, whose gpg-agent asks for passphrases and gpgv checks the signatures;
 * the sandboxes are built with debootstrap and probed with curl; the integration tests
 * build real Debian packages from the archive to compare the app's uploads with dput-ng's
 * (their build dependencies: test/support/archive-corpus.ts); e2e tests drive Debian's
 * Chromium.
 */
const PACKAGES = {
  all: ['dpkg-dev', 'fakeroot', 'xz-utils', 'zstd', 'devscripts', 'gpg', 'gpg-agent', 'gpgv'],
  servers: ['curl', 'ca-certificates'],
  corpus: ['build-essential', 'debhelper', 'help2man', 'texinfo'],
  sandbox: ['debootstrap'],
  e2e: ['chromium'],
};

/** Which groups of packages a vitest command line needs (`--project unit` needs the fewest). */
export function neededGroups(args, env = process.env) {
  const projects = [];
  args.forEach((arg, i) => {
    if (arg === '--project' && args[i + 1]) projects.push(args[i + 1]);
    else if (arg.startsWith('--project=')) projects.push(arg.slice('--project='.length));
  });
  const all = projects.length === 0;
  // `e2e` and `e2e-waits` (or a pattern such as `e2e*`) drive Chromium against the sandboxes.
  const e2e = projects.some((p) => p.startsWith('e2e'));
  const servers = all || e2e || projects.includes('integration');
  const groups = new Set(['all']);
  if (servers) groups.add('servers');
  if (servers && !env.DEBUSINE_TEST_API_URL) {
    groups.add('sandbox');
    // The corpus is uploaded by dput-ng in the sandbox's chroot: no sandbox, no corpus.
    groups.add('corpus');
  }
  if (all || e2e) groups.add('e2e');
  return groups;
}

function installed(name) {
  const query = spawnSync('dpkg-query', ['-W', '-f=${db:Status-Status}', name], {
    encoding: 'utf8',
  });
  return query.status === 0 && query.stdout.trim() === 'installed';
}

/**
 * Returns undefined when every needed package is there (installing what was missing), or the
 * one-line reason the tests cannot go on.
 */
export function ensureDebianPackages(args, log = console.log) {
  if (spawnSync('dpkg-query', ['--version']).status !== 0) {
    return 'The tests need a Debian system (dpkg-query was not found).';
  }
  const groups = neededGroups(args);
  const missing = Object.entries(PACKAGES)
    .filter(([group]) => groups.has(group))
    .flatMap(([, names]) => names)
    .filter((name) => !installed(name));
  if (missing.length === 0) return undefined;
  const command = `apt-get install --no-install-recommends ${missing.join(' ')}`;
  if (process.getuid?.() !== 0) {
    return `Debian packages the tests need are missing; run as root: ${command}`;
  }
  log(`Installing the Debian packages the tests need: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // A failed update still leaves the lists apt had; the install below says if they are not enough.
  const update = spawnSync('apt-get', ['update', '-q'], { env, encoding: 'utf8' });
  if (update.status !== 0) log(`apt-get update failed; trying with the package lists apt has`);
  const install = spawnSync(
    'apt-get',
    ['install', '-y', '-q', '--no-install-recommends', ...missing],
    { env, encoding: 'utf8' },
  );
  if (install.status !== 0) {
    const tail = `${install.stdout}\n${install.stderr}`.trim().split('\n').slice(-10).join('\n');
    return `apt-get could not install ${missing.join(' ')} (exit ${String(install.status)}):\n${tail}`;
  }
  const still = missing.filter((name) => !installed(name));
  if (still.length > 0) return `apt-get ran, but these are still not installed: ${still.join(' ')}`;
  return undefined;
}
