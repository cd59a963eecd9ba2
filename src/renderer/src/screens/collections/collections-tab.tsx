import { Library, Plus } from 'lucide-react';
import { EmptyState } from '@renderer/components/empty-state';
import { useCollections } from '@renderer/queries/collections';
import { canLeave } from '@renderer/state/leave-guard';
import type { CollectionData } from '@shared/contract';
import { ListPane, ReloadButton } from '@renderer/kit/list-pane';
import { featureQuery } from '@renderer/kit/errors/feature-error';
import { CollectionDetail } from './collection-detail';
import { CollectionEditor } from './collection-editor';
import { useCollectionsUi } from './ui';
import { TableHead } from '@renderer/components/table-head';

/** The collections of a workspace on the left; the selected one, or the editor, on the right. */
export function CollectionsTabView(props: { workspace: string }): React.JSX.Element {
  const list = useCollections(props.workspace);
  const selected = useCollectionsUi((s) => s.selected);
  const editing = useCollectionsUi((s) => s.editing);
  const select = useCollectionsUi((s) => s.select);

  const got = featureQuery(list, {
    loading: 'Loading collections…',
    feature: 'Collections',
    since: '0.13',
  });
  if ('view' in got) return got.view;
  const collections = got.data;
  const current =
    selected?.kind === 'collection' ? collections.find((c) => c.id === selected.id) : undefined;

  return (
    <div className="split">
      <ListPane
        titleId="collections-list-title"
        title="Collections"
        count={collections.length}
        actions={
          <>
            <ReloadButton
              label="Reload collections"
              fetching={list.isFetching}
              onClick={() => void list.refetch()}
            />
            <button
              type="button"
              className="button small primary"
              onClick={() => {
                if (canLeave()) select({ kind: 'new' }, true);
              }}
            >
              <Plus size={14} aria-hidden="true" />
              New collection
            </button>
          </>
        }
      >
        {collections.length === 0 ? (
          <EmptyState icon={Library} title="No collections">
            This workspace has no collections yet.
          </EmptyState>
        ) : (
          <CollectionTable
            collections={collections}
            selectedId={current?.id ?? null}
            onSelect={(c) => {
              if (c.id !== current?.id && canLeave()) select({ kind: 'collection', id: c.id });
            }}
          />
        )}
      </ListPane>
      <section className="pane" aria-label="Collection">
        {selected?.kind === 'new' ? (
          <CollectionEditor
            workspace={props.workspace}
            original={null}
            onDone={(saved) => {
              select(saved ? { kind: 'collection', id: saved.id } : null);
            }}
          />
        ) : current && editing ? (
          <CollectionEditor
            workspace={props.workspace}
            original={current}
            key={current.id}
            onDone={() => {
              select({ kind: 'collection', id: current.id });
            }}
          />
        ) : current ? (
          <CollectionDetail workspace={props.workspace} collection={current} key={current.id} />
        ) : (
          <EmptyState icon={Library} title="No collection selected">
            Pick a collection on the left to see its data and items, or create one.
          </EmptyState>
        )}
      </section>
    </div>
  );
}

function CollectionTable(props: {
  collections: CollectionData[];
  selectedId: number | null;
  onSelect: (c: CollectionData) => void;
}): React.JSX.Element {
  return (
    <table className="table list-table" aria-label="Collections">
      <TableHead widths={['40%', null, 64]} columns={['Name', 'Category', 'Id']} />
      <tbody>
        {props.collections.map((c) => (
          <tr key={c.id} aria-selected={c.id === props.selectedId}>
            <td>
              <button
                type="button"
                className="row-button mono"
                aria-current={c.id === props.selectedId ? 'true' : undefined}
                onClick={() => {
                  props.onSelect(c);
                }}
              >
                {c.name}
              </button>
            </td>
            <td className="cell-ellipsis mono muted" title={c.category}>
              {c.category}
            </td>
            <td className="mono muted">{c.id}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
