/** Personal APT repositories of the active server: the app's list, suites, packages, tokens. */
import type { QueryKey } from '@tanstack/react-query';
import type { RequestArgs } from '@shared/contract';
import { defineMutation, defineQuery, type Scope } from './define';

export const repositoryKeys = {
  all: (scope: Scope): QueryKey => [scope, 'repositories'],
  list: (scope: Scope): QueryKey => [scope, 'repositories', 'list'],
  templates: (scope: Scope, workspace: string): QueryKey => [
    scope,
    'repositories',
    'templates',
    workspace,
  ],
  suites: (scope: Scope, workspace: string): QueryKey => [
    scope,
    'repositories',
    workspace,
    'suites',
  ],
  packages: (scope: Scope, workspace: string, suite: string): QueryKey => [
    scope,
    'repositories',
    workspace,
    'suite',
    suite,
    'packages',
  ],
  apt: (scope: Scope, workspace: string, suite: string): QueryKey => [
    scope,
    'repositories',
    workspace,
    'suite',
    suite,
    'apt',
  ],
  tokens: (scope: Scope, workspace: string): QueryKey => [
    scope,
    'repositories',
    workspace,
    'tokens',
  ],
};

/** A repository being made is read again until its workflow has ended. */
const CREATING_POLL_MS = 3_000;
/** A suite with no key yet is read again: the key comes with its first publication. */
const KEY_POLL_MS = 10_000;
/**
 * How long a page waits for a key before it stops asking and says so: a first publication
 * (build, QA, indexes, signing) takes minutes on a quiet server, not tens of minutes.
 */
export const KEY_WAIT_MS = 15 * 60_000;

export const repositoryQueries = {
  list: (scope: Scope) =>
    defineQuery(repositoryKeys.list(scope), (bridge) => bridge.repositories.list(), {
      refetchInterval: (query) =>
        query.state.data?.some((r) => r.state === 'creating') ? CREATING_POLL_MS : false,
    }),
  templates: (scope: Scope, workspace: string) =>
    defineQuery(
      repositoryKeys.templates(scope, workspace),
      (bridge) => bridge.repositories.templates({ workspace }),
      { retry: false },
    ),
  suites: (scope: Scope, workspace: string) =>
    defineQuery(
      repositoryKeys.suites(scope, workspace),
      (bridge) => bridge.repositories.suites({ workspace }),
      { retry: false },
    ),
  packages: (scope: Scope, workspace: string, suite: string, search: string) =>
    defineQuery(
      [...repositoryKeys.packages(scope, workspace, suite), search],
      (bridge) => bridge.repositories.packages({ workspace, suite, search }),
      { retry: false },
    ),
  /** `poll`: whether to read it again while it has no key (the page bounds the wait). */
  apt: (scope: Scope, workspace: string, suite: string, withSources: boolean, poll: boolean) =>
    defineQuery(
      [...repositoryKeys.apt(scope, workspace, suite), withSources],
      (bridge) => bridge.repositories.aptSetup({ workspace, suite, withSources }),
      {
        retry: false,
        refetchInterval: (query) =>
          poll && query.state.data?.keyState === 'not-yet' ? KEY_POLL_MS : false,
      },
    ),
  targets: (scope: Scope) =>
    defineQuery([...repositoryKeys.all(scope), 'targets'], (bridge) =>
      bridge.repositories.targets(),
    ),
  tokens: (scope: Scope, workspace: string) =>
    defineQuery(
      repositoryKeys.tokens(scope, workspace),
      (bridge) => bridge.repositories.tokens({ workspace }),
      { retry: false },
    ),
};

export const repositoryMutations = {
  create: defineMutation({
    fn: (bridge, args: RequestArgs<'repositories.create'>) => bridge.repositories.create(args),
    invalidates: (scope) => [repositoryKeys.list(scope)],
  }),
  remember: defineMutation({
    fn: (bridge, args: RequestArgs<'repositories.remember'>) => bridge.repositories.remember(args),
    invalidates: (scope) => [repositoryKeys.list(scope)],
  }),
  forget: defineMutation({
    fn: (bridge, args: RequestArgs<'repositories.forget'>) => bridge.repositories.forget(args),
    invalidates: (scope) => [repositoryKeys.list(scope)],
  }),
  addSuite: defineMutation({
    fn: (bridge, args: RequestArgs<'repositories.addSuite'>) => bridge.repositories.addSuite(args),
    invalidates: (scope, args) => [repositoryKeys.suites(scope, args.workspace)],
  }),
  removePackage: defineMutation({
    fn: (bridge, args: RequestArgs<'repositories.removePackage'>) =>
      bridge.repositories.removePackage(args),
    invalidates: (scope, args) => [repositoryKeys.packages(scope, args.workspace, args.suite)],
  }),
  setArchiveUrl: defineMutation({
    fn: (bridge, args: RequestArgs<'repositories.setArchiveUrl'>) =>
      bridge.repositories.setArchiveUrl(args),
    invalidates: (scope) => [repositoryKeys.all(scope)],
  }),
  grantToken: defineMutation({
    fn: (bridge, args: RequestArgs<'repositories.grantToken'>) =>
      bridge.repositories.grantToken(args),
    invalidates: (scope, args) => [repositoryKeys.tokens(scope, args.workspace)],
  }),
  copyPackage: defineMutation({
    fn: (bridge, args: RequestArgs<'repositories.copyPackage'>) =>
      bridge.repositories.copyPackage(args),
    invalidates: (scope, args) => [
      repositoryKeys.packages(scope, args.from.workspace, args.from.suite),
      repositoryKeys.packages(scope, args.to.workspace, args.to.suite),
    ],
  }),
  dputProfile: defineMutation({
    fn: (bridge, args: RequestArgs<'repositories.dputProfile'>) =>
      bridge.repositories.dputProfile(args),
    invalidates: () => [],
  }),
  revokeToken: defineMutation({
    fn: (bridge, args: RequestArgs<'repositories.revokeToken'>) =>
      bridge.repositories.revokeToken(args),
    invalidates: (scope, args) => [repositoryKeys.tokens(scope, args.workspace)],
  }),
};
