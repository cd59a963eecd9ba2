/**
 * Query-key factories: every react-query key the renderer uses comes from here, so that
 * main's events (queries/invalidation.ts) invalidate exactly what they concern. Keys are
 * hierarchical: invalidating `workRequests.all()` invalidates every list and every page.
 */
export const keys = {
  app: { info: () => ['app', 'info'] as const },
  session: {
    all: () => ['session'] as const,
    whoami: () => ['session', 'whoami'] as const,
  },
  servers: {
    all: () => ['servers'] as const,
    list: () => ['servers', 'list'] as const,
    active: () => ['servers', 'active'] as const,
    check: (id: string | null) => ['servers', 'check', id] as const,
  },
  connection: { state: () => ['connection'] as const },
  watch: { list: () => ['watch'] as const },
  notifications: {
    settings: () => ['notifications', 'settings'] as const,
    recent: () => ['notifications', 'recent'] as const,
  },
  signing: { available: () => ['signing', 'available'] as const },
  users: { names: (ids: readonly number[]) => ['users', 'names', ...ids] as const },
  workRequests: {
    all: () => ['workRequests'] as const,
    lists: () => ['workRequests', 'list'] as const,
    list: (filters: object) => ['workRequests', 'list', filters] as const,
    /** The infinite list's keys carry `view: 'pages'` (screens/work-requests/queries.ts). */
    isPagedList: (queryKey: readonly unknown[]): boolean =>
      queryKey[1] === 'list' && (queryKey[2] as { view?: unknown } | undefined)?.view === 'pages',
    detail: (id: number) => ['workRequests', 'detail', id] as const,
  },
  workflowTemplates: {
    all: (workspace: string) => ['workflowTemplates', workspace] as const,
    detail: (workspace: string, id: number | string) =>
      ['workflowTemplates', workspace, 'detail', id] as const,
  },
  artifacts: {
    all: () => ['artifacts'] as const,
    detail: (id: number) => ['artifacts', 'detail', id] as const,
    relations: (id: number) => ['artifacts', 'relations', id] as const,
  },
  assets: { list: (filters: object) => ['assets', filters] as const },
  collections: {
    all: (workspace: string) => ['collections', workspace] as const,
    detail: (workspace: string, category: string, name: string) =>
      ['collections', workspace, category, name] as const,
    items: (workspace: string, category: string, name: string) =>
      ['collections', workspace, category, name, 'items'] as const,
  },
  taskConfig: {
    detail: (workspace: string, name: string) => ['taskConfig', workspace, name] as const,
  },
  workspaces: {
    inheritance: (workspace: string) => ['workspaces', workspace, 'inheritance'] as const,
  },
  uploads: { list: () => ['uploads'] as const },
} as const;
