// A table that draws only the rows in view (TanStack Virtual), for the tables that can grow to
// hundreds or thousands of rows: a run's nodes, a page of executions (docs/ui.md). Rows out of
// view are stood in for by two empty rows as tall as they are, so that the columns keep one
// layout and the scrollbar tells the truth; each row drawn says where it stands in the whole.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { Key, ReactNode } from 'react';
import { scrollKeys } from './virtual-list';

/** Rows drawn beyond each edge of the view, so that scrolling and tabbing meet no blank rows. */
const OVERSCAN = 12;

export function VirtualTable(props: {
  /** The table's accessible name. */
  readonly label: string;
  readonly columns: readonly string[];
  readonly count: number;
  /** Height of a row in pixels before it is measured. */
  readonly estimate: number;
  readonly rowKey: (index: number) => Key;
  /** The cells of a row. */
  readonly cells: (index: number) => ReactNode;
  /** Attributes of a row beside its place, such as the node it shows. */
  readonly rowData?: (index: number) => Readonly<Record<`data-${string}`, string>>;
}) {
  const { count, columns } = props;
  const scroller = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the UI is built without the React Compiler, so nothing memoizes what the virtualizer returns
  const rows = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => props.estimate,
    overscan: OVERSCAN,
    getItemKey: props.rowKey,
  });
  const shown = rows.getVirtualItems();
  const before = shown[0]?.start ?? 0;
  const after = rows.getTotalSize() - (shown.at(-1)?.end ?? 0);
  return (
    // Reachable by keyboard so that the arrows, Page Down, Home and End scroll it.
    <div ref={scroller} className="virtual-table" tabIndex={0} onKeyDown={scrollKeys(rows, count)}>
      <table aria-label={props.label} aria-rowcount={count + 1}>
        <thead>
          <tr aria-rowindex={1}>
            {columns.map((column) => (
              <th key={column}>{column}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {before > 0 && <Spacer height={before} columns={columns.length} />}
          {shown.map((row) => (
            <tr
              key={row.key}
              {...props.rowData?.(row.index)}
              data-index={row.index}
              aria-rowindex={row.index + 2}
              ref={rows.measureElement}
            >
              {props.cells(row.index)}
            </tr>
          ))}
          {after > 0 && <Spacer height={after} columns={columns.length} />}
        </tbody>
      </table>
    </div>
  );
}

function Spacer(props: { readonly height: number; readonly columns: number }) {
  return (
    <tr aria-hidden="true" className="spacer" style={{ height: `${String(props.height)}px` }}>
      <td colSpan={props.columns} />
    </tr>
  );
}
