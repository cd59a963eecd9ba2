/**
 * The shared column heads write the very markup the tables wrote by hand: the same elements,
 * scopes, classes, widths and hidden labels, so that screen readers, styles and the end-to-end
 * tests see no difference.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TableHead } from '@renderer/components/table-head';

const markup = (node: React.JSX.Element): string => renderToStaticMarkup(<table>{node}</table>);

describe('TableHead', () => {
  it('writes one scoped head a column, and no colgroup without widths', () => {
    expect(markup(<TableHead columns={['Name', 'Category']} />)).toBe(
      markup(
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Category</th>
          </tr>
        </thead>,
      ),
    );
  });

  it('writes the widths as cols, pixels for numbers and free where null', () => {
    expect(
      markup(<TableHead widths={['38%', null, 64]} columns={['Name', 'Workflow', 'Id']} />),
    ).toBe(
      markup(
        <>
          <colgroup>
            <col style={{ width: '38%' }} />
            <col />
            <col style={{ width: 64 }} />
          </colgroup>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Workflow</th>
              <th scope="col">Id</th>
            </tr>
          </thead>
        </>,
      ),
    );
    expect(markup(<TableHead widths={[64]} columns={['Id']} />)).toContain(
      '<col style="width:64px"/>',
    );
  });

  it('keeps a class, a visually hidden name and a name given as the label only', () => {
    expect(
      markup(
        <TableHead
          className="visually-hidden"
          columns={[
            { label: 'Size', className: 'num' },
            { label: 'Actions', hide: 'visually' },
            { label: 'Download', hide: 'aria' },
          ]}
        />,
      ),
    ).toBe(
      markup(
        <thead className="visually-hidden">
          <tr>
            <th scope="col" className="num">
              Size
            </th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
            <th scope="col" aria-label="Download" />
          </tr>
        </thead>,
      ),
    );
  });
});
