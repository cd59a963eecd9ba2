/**
 * A table's column heads, and its column widths where it fixes them. Every table of the app
 * spells its heads the same way (one `<th scope="col">` a column, so that a screen reader
 * announces each cell with its column's name); written once here, a new table cannot forget
 * the scope, and the tables' markup stays the same from one screen to the next.
 */

/** How a column's name is shown: as text, to screen readers only, or as the head's label. */
type Hide = 'visually' | 'aria';

/** A column: its name alone, or its name with a class and how the name is shown. */
export type Column = string | { label: string; className?: string; hide?: Hide };

/** A width of `<col>`: a number is pixels, a string any CSS width; null leaves it free. */
export type ColumnWidth = number | string | null;

function HeadCell(props: { column: Column }): React.JSX.Element {
  const column =
    typeof props.column === 'string' ? { label: props.column, hide: undefined } : props.column;
  if (column.hide === 'aria') {
    return <th scope="col" className={column.className} aria-label={column.label} />;
  }
  return (
    <th scope="col" className={column.className}>
      {column.hide === 'visually' ? (
        <span className="visually-hidden">{column.label}</span>
      ) : (
        column.label
      )}
    </th>
  );
}

/**
 * The `<colgroup>` (only when `widths` is given, one entry a column) and the `<thead>` of a
 * table, to be placed first inside its `<table>`.
 */
export function TableHead(props: {
  columns: readonly Column[];
  widths?: readonly ColumnWidth[];
  className?: string;
}): React.JSX.Element {
  return (
    <>
      {props.widths ? (
        <colgroup>
          {props.widths.map((width, i) => (
            <col key={i} style={width === null ? undefined : { width }} />
          ))}
        </colgroup>
      ) : null}
      <thead className={props.className}>
        <tr>
          {props.columns.map((column, i) => (
            <HeadCell key={i} column={column} />
          ))}
        </tr>
      </thead>
    </>
  );
}
