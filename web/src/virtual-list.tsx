// A list that draws only the rows in view (TanStack Virtual), for the lists that can grow to
// thousands of rows: a run's log lines, a large workflow's nodes and edges (docs/ui.md). Rows are
// measured as they are drawn, so a wrapped row takes the room it needs. The run view's node
// table (run-nodes.tsx) draws its rows the same way and shares the Home and End keys.
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Virtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useRef } from 'react';
import type { Key, KeyboardEvent, ReactNode } from 'react';

/** Rows drawn beyond each edge of the view, so that scrolling and tabbing meet no blank rows. */
const OVERSCAN = 12;

/**
 * Home and End in a virtualised box go to its first and last row. The browser's own scroll
 * aims at a height made of estimates, and stops short as the rows on the way are measured.
 */
export function scrollKeys<TElement extends Element>(
  rows: Virtualizer<HTMLDivElement, TElement>,
  count: number,
): (event: KeyboardEvent<HTMLDivElement>) => void {
  return (event) => {
    if (event.target !== event.currentTarget || count === 0) return;
    if (event.key !== 'Home' && event.key !== 'End') return;
    event.preventDefault();
    if (event.key === 'Home') rows.scrollToIndex(0, { align: 'start' });
    else rows.scrollToIndex(count - 1, { align: 'end' });
  };
}

export function VirtualList(props: {
  /** The list's accessible name. */
  readonly label: string;
  readonly count: number;
  /** Height of a row in pixels before it is measured. */
  readonly estimate: number;
  readonly rowKey: (index: number) => Key;
  readonly row: (index: number) => ReactNode;
  /** Classes of the scrolling box; it sets the list's largest height. */
  readonly className: string;
  /** Keep the newest row on view while the reader is at the end, as a log does. */
  readonly follow?: boolean;
}) {
  const { count, estimate } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const atEnd = useRef(true);
  // eslint-disable-next-line react-hooks/incompatible-library -- the UI is built without the React Compiler, so nothing memoizes what the virtualizer returns
  const rows = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => estimate,
    overscan: OVERSCAN,
    getItemKey: props.rowKey,
  });
  const follow = props.follow === true;
  useLayoutEffect(() => {
    if (follow && atEnd.current && count > 0) rows.scrollToIndex(count - 1, { align: 'end' });
  }, [follow, count, rows]);
  return (
    <div
      ref={scroller}
      className={`virtual-list ${props.className}`}
      // Reachable by keyboard so that the arrows, Page Down, Home and End scroll it.
      tabIndex={0}
      onKeyDown={scrollKeys(rows, count)}
      onScroll={(event) => {
        const box = event.currentTarget;
        atEnd.current = box.scrollHeight - box.scrollTop - box.clientHeight < estimate;
      }}
    >
      <ol aria-label={props.label} style={{ height: `${String(rows.getTotalSize())}px` }}>
        {rows.getVirtualItems().map((row) => (
          <li
            key={row.key}
            ref={rows.measureElement}
            data-index={row.index}
            // The page holds only the rows in view: each says where it stands in the whole.
            aria-setsize={count}
            aria-posinset={row.index + 1}
            style={{ transform: `translateY(${String(row.start)}px)` }}
          >
            {props.row(row.index)}
          </li>
        ))}
      </ol>
    </div>
  );
}
