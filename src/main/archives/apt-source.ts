/**
 * What a user needs to install from a repository with apt: the deb822 `.sources` entry
 * with the archive's key inline (as Debusine's own suite page writes it: `Signed-By:`
 * followed by the armoured key, a space before each line and ` .` for an empty one), the
 * `auth.conf` line of a private repository, and the `DEBUGINFOD_URLS` setting for its
 * debug symbols. Everything here is text made from names the server gave: each is checked
 * against what apt could read unambiguously before it goes into a file.
 */

/**
 * The archive host Debusine serves repositories on when nothing else is known: `deb.` before
 * the API's host name, as a server's default settings have it. An API reached by its IP
 * address has no such name (and `deb.` before an IPv4 address is no host at all): its own
 * origin is the guess then, for the user to correct.
 */
export function defaultArchiveUrl(apiUrl: string): string {
  const api = new URL(apiUrl);
  const isAddress = /^\d+\.\d+\.\d+\.\d+$/.test(api.hostname) || api.hostname.startsWith('[');
  return isAddress ? api.origin : `https://deb.${api.hostname}`;
}

/**
 * An archive address the user gave: http(s), a host, nothing after it but a path prefix
 * (a proxy may serve the archive below one); no user name or password in it (those go to
 * auth.conf, never to a file anyone may read).
 */
export function parseArchiveUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new Error(`Not an address: ${text.slice(0, 200)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`The archive's address must start with https:// or http://`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new Error('The archive’s address may not hold a user name or a password');
  }
  if (url.search !== '' || url.hash !== '') {
    throw new Error('The archive’s address may not have a query or a fragment');
  }
  return url;
}

/** Names that go into the entry: what Debusine allows for scopes, workspaces and suites. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9+._-]*$/;
const ARCHITECTURE = /^[a-z0-9][a-z0-9-]*$/;

function checked(kind: string, value: string, pattern = NAME): string {
  if (!pattern.test(value) || value.length > 200) {
    throw new Error(`The ${kind} “${value.slice(0, 80)}” cannot go into an APT source`);
  }
  return value;
}

/** The repository's base URI: the archive host, then the scope and the workspace. */
export function repositoryUri(archiveUrl: string, scope: string, workspace: string): string {
  const base = parseArchiveUrl(archiveUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  return `${base.origin}${prefix}/${checked('scope', scope)}/${checked('workspace', workspace)}`;
}

export interface AptSourceInput {
  archiveUrl: string;
  scope: string;
  workspace: string;
  suite: string;
  components: readonly string[];
  /** Left out when empty: apt then takes the system's own. */
  architectures: readonly string[];
  /** The armoured key block; null when the archive has no key yet (nothing to trust). */
  armoredKey: string | null;
  /** Source packages too (`deb-src`). */
  withSources: boolean;
}

export function aptSourcesText(input: AptSourceInput): string {
  const lines = [
    `Types: ${input.withSources ? 'deb deb-src' : 'deb'}`,
    `URIs: ${repositoryUri(input.archiveUrl, input.scope, input.workspace)}`,
    `Suites: ${checked('suite', input.suite)}`,
  ];
  const components = input.components.map((c) => checked('component', c));
  lines.push(`Components: ${components.length > 0 ? components.join(' ') : 'main'}`);
  const architectures = input.architectures
    .filter((a) => a !== 'all')
    .map((a) => checked('architecture', a, ARCHITECTURE));
  if (architectures.length > 0) lines.push(`Architectures: ${architectures.join(' ')}`);
  if (input.armoredKey !== null) {
    lines.push('Signed-By:');
    for (const line of input.armoredKey.replace(/\r\n?/g, '\n').trimEnd().split('\n')) {
      lines.push(line.trim() === '' ? ' .' : ` ${line.trim()}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * apt's auth.conf entry for a private repository (apt_auth.conf(5)): the host (and port)
 * and the path of the repository, so the login is sent there and nowhere else.
 */
export function authConfLine(
  archiveUrl: string,
  scope: string,
  workspace: string,
  login: string,
  password: string,
): string {
  const uri = new URL(repositoryUri(archiveUrl, scope, workspace));
  // Spaces, tabs and newlines end a token in auth.conf; a login or key with one would
  // write another entry.
  for (const [what, value] of [
    ['login', login],
    ['password', password],
  ] as const) {
    if (value === '' || /[\s#]/.test(value)) {
      throw new Error(`The ${what} cannot go into auth.conf: it is empty or holds a space or #`);
    }
  }
  return `machine ${uri.host}${uri.pathname}/ login ${login} password ${password}\n`;
}

/** debuginfod clients add `/buildid/<id>/debuginfo` to each URL, which the archive serves. */
export function debuginfodLine(archiveUrl: string, scope: string, workspace: string): string {
  return `export DEBUGINFOD_URLS="${repositoryUri(archiveUrl, scope, workspace)}"\n`;
}
