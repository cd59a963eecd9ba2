import { CopyButton } from '@renderer/components/copy-button';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { JsonView } from '@renderer/components/json-view';
import { LoadingState } from '@renderer/components/loading-state';
import { collectionMutations, collectionQueries } from '@renderer/queries/collections';
import { useServerQuery } from '@renderer/queries/hooks';
import type { CollectionData } from '@shared/contract';
import { DetailPane } from '@renderer/kit/detail-pane';
import { useConfirmedDelete } from '@renderer/kit/editor-state';
import { useCollectionsUi } from './ui';
import { TableHead } from '@renderer/components/table-head';

function formatRetention(days: number | null | undefined): string {
  if (days === null || days === undefined) return 'unlimited';
  return `${String(days)} ${days === 1 ? 'day' : 'days'}`;
}

export function CollectionDetail(props: {
  workspace: string;
  collection: CollectionData;
}): React.JSX.Element {
  const { workspace, collection } = props;
  const setEditing = useCollectionsUi((s) => s.setEditing);
  const select = useCollectionsUi((s) => s.select);
  const deletion = useConfirmedDelete({
    mutation: collectionMutations.remove,
    onDeleted: () => {
      select(null);
    },
  });
  const label = `${collection.name}@${collection.category}`;
  return (
    <DetailPane
      heading={label}
      headingTitle={label}
      actions={<CopyButton text={label} label="Copy lookup" />}
      onEdit={() => {
        setEditing(true);
      }}
      deletion={deletion}
      onConfirmDelete={() => {
        deletion.remove.mutate({
          workspace,
          category: collection.category,
          name: collection.name,
          force: false,
        });
      }}
      confirmTitle={`Delete ${label}?`}
      confirmLabel="Delete collection"
      confirmText={
        <p>
          The server refuses to delete a collection that still has items. This cannot be undone.
        </p>
      }
    >
      <dl className="props">
        <dt>Id</dt>
        <dd className="mono">{collection.id}</dd>
        <dt>Name</dt>
        <dd className="mono">{collection.name}</dd>
        <dt>Category</dt>
        <dd className="mono">{collection.category}</dd>
        <dt>Full history kept</dt>
        <dd>{formatRetention(collection.full_history_retention_period)}</dd>
        <dt>Metadata kept</dt>
        <dd>{formatRetention(collection.metadata_only_retention_period)}</dd>
      </dl>
      <h3 className="section-title">Data</h3>
      <JsonView value={collection.data} label={`Data of ${label}`} />
      <CollectionItems workspace={workspace} collection={collection} />
    </DetailPane>
  );
}

function CollectionItems(props: {
  workspace: string;
  collection: CollectionData;
}): React.JSX.Element {
  const { workspace, collection } = props;
  const items = useServerQuery((scope) =>
    collectionQueries.items(scope, workspace, collection.category, collection.name),
  );
  return (
    <>
      <h3 className="section-title">
        Items {items.data ? <span className="count-badge">{items.data.length}</span> : null}
      </h3>
      {items.isPending ? (
        <LoadingState label="Loading items…" />
      ) : items.isError ? (
        <ErrorState error={items.error} onRetry={() => void items.refetch()} />
      ) : items.data.length === 0 ? (
        <p className="muted">No active items.</p>
      ) : (
        <table className="table list-table" aria-label={`Items of ${collection.name}`}>
          <TableHead widths={['38%', '22%', null]} columns={['Name', 'Category', 'Data']} />
          <tbody>
            {items.data.map((item) => (
              <tr key={item.name}>
                <td className="mono cell-ellipsis" title={item.name}>
                  {item.name}
                </td>
                <td className="mono muted cell-ellipsis">{item.category}</td>
                <td className="truncate-json" title={JSON.stringify(item.data)}>
                  {JSON.stringify(item.data)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
