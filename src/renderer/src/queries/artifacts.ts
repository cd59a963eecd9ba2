/** Artifacts of the active server: one artifact, its web page's address, its relations. */
import type { QueryKey } from '@tanstack/react-query';
import { defineMutation, defineQuery, type Scope } from './define';

export const artifactKeys = {
  detail: (scope: Scope, id: number): QueryKey => [scope, 'artifacts', 'detail', id],
  relations: (scope: Scope, id: number): QueryKey => [scope, 'artifacts', 'relations', id],
};

export type RelationType = 'extends' | 'relates-to' | 'built-using';

export const artifactQueries = {
  detail: (scope: Scope, id: number) =>
    defineQuery(artifactKeys.detail(scope, id), (bridge) => bridge.artifacts.get({ id })),
  /** The artifact's page in the server's web UI (`path` is the one the artifact gives). */
  webPage: (scope: Scope, id: number, path: string) =>
    defineQuery(
      [...artifactKeys.detail(scope, id), 'webui'],
      (bridge) => bridge.links.webui({ server: scope, path }),
      { staleTime: Infinity },
    ),
  /** The relations from the artifact and those to it. */
  relations: (scope: Scope, id: number) =>
    defineQuery(
      artifactKeys.relations(scope, id),
      async (bridge) => {
        const [from, to] = await Promise.all([
          bridge.relations.list({ artifactId: id }),
          bridge.relations.list({ targetId: id }),
        ]);
        return { from, to };
      },
      { retry: false },
    ),
};

export const artifactMutations = {
  /** A relation between `artifactId` and `otherId`, from it (`out`) or to it (`in`). */
  relate: defineMutation({
    fn: (
      bridge,
      args: { artifactId: number; otherId: number; direction: 'out' | 'in'; type: RelationType },
    ) =>
      bridge.relations.create(
        args.direction === 'out'
          ? { artifact: args.artifactId, target: args.otherId, type: args.type }
          : { artifact: args.otherId, target: args.artifactId, type: args.type },
      ),
    invalidates: (scope, args) => [
      artifactKeys.relations(scope, args.artifactId),
      artifactKeys.relations(scope, args.otherId),
    ],
  }),
};
