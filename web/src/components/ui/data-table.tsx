// The one table of the app (style.md): TanStack Table with server-side
// pagination whose page lives in the URL (?page=N, or another param name
// when a screen shows several tables).
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type PaginationState,
} from '@tanstack/react-table';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/** The 1-based page number held in the URL search param `param`. */
export function usePageParam(param = 'page'): [number, (page: number) => void] {
  const [params, setParams] = useSearchParams();
  const raw = Number.parseInt(params.get(param) ?? '1', 10);
  const page = Number.isFinite(raw) && raw > 0 ? raw : 1;
  const setPage = useCallback(
    (next: number) => {
      setParams(
        (prev) => {
          const p = new URLSearchParams(prev);
          if (next <= 1) p.delete(param);
          else p.set(param, String(next));
          return p;
        },
        { replace: false },
      );
    },
    [param, setParams],
  );
  return [page, setPage];
}

export type DataTableProps<T> = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<T, any>[];
  data: T[];
  /** Total pages as the server reports them. */
  pageCount: number;
  pageSize?: number;
  emptyText: string;
  isLoading?: boolean;
  pageParam?: string;
  /** Paging caption; the spec says 'N of M' (and 'x of y pages' in user detail). */
  pagingLabel?: (page: number, pages: number) => string;
  getRowId?: (row: T, index: number) => string;
  rowClassName?: (row: T) => string | undefined;
  /** A list shown whole (search results): no paging bar. */
  hidePaging?: boolean;
};

/** One page of a list the server sends whole (paged here, page still in the URL). */
export function slicePage<T>(items: T[], page: number, pageSize: number): { rows: T[]; pages: number } {
  const pages = Math.ceil(items.length / pageSize);
  const start = (Math.min(page, Math.max(pages, 1)) - 1) * pageSize;
  return { rows: items.slice(start, start + pageSize), pages };
}

export function DataTable<T>({
  columns,
  data,
  pageCount,
  pageSize = 50,
  emptyText,
  isLoading,
  pageParam = 'page',
  pagingLabel = (p, n) => `${p} of ${n}`,
  getRowId,
  rowClassName,
  hidePaging,
}: DataTableProps<T>) {
  const [page, setPage] = usePageParam(pageParam);
  const pages = Math.max(pageCount, 1);
  const pagination: PaginationState = { pageIndex: page - 1, pageSize };

  // The app does not use the React Compiler, whose memoising this rule warns TanStack Table skips.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data,
    columns,
    pageCount: pages,
    state: { pagination },
    manualPagination: true,
    onPaginationChange: (updater) => {
      const next = typeof updater === 'function' ? updater(pagination) : updater;
      setPage(next.pageIndex + 1);
    },
    getCoreRowModel: getCoreRowModel(),
    getRowId,
  });

  const rows = table.getRowModel().rows;
  return (
    <div className="data-table">
      {/* Focusable, so a keyboard can scroll a table wider than the screen (axe: scrollable-region-focusable). */}
      <div className="table-scroll" tabIndex={0}>
        <table>
          <thead>
            {table.getHeaderGroups().map((hg) => (
              <tr key={hg.id}>
                {hg.headers.map((h) => (
                  <th key={h.id} colSpan={h.colSpan}>
                    {h.isPlaceholder ? null : flexRender(h.column.columnDef.header, h.getContext())}
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {isLoading ? (
              <tr>
                <td colSpan={columns.length} className="table-empty">
                  Loading...
                </td>
              </tr>
            ) : rows.length === 0 ? (
              <tr>
                <td colSpan={columns.length} className="table-empty">
                  {emptyText}
                </td>
              </tr>
            ) : (
              rows.map((row) => (
                <tr key={row.id} className={rowClassName?.(row.original)}>
                  {row.getVisibleCells().map((cell) => (
                    <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {!hidePaging && (
      <div className="table-paging">
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={() => table.previousPage()}
          disabled={!table.getCanPreviousPage()}
          aria-label="Previous page"
        >
          ‹
        </button>
        <span className="paging-label">{pagingLabel(Math.min(page, pages), pages)}</span>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={() => table.nextPage()}
          disabled={!table.getCanNextPage()}
          aria-label="Next page"
        >
          ›
        </button>
      </div>
      )}
    </div>
  );
}
