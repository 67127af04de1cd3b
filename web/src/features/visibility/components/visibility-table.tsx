// Show or Hide per API (My APIs; User Detail, API Status 'Status by API name') or per category
// ('Status by category name'), applied on selection. Shown unless explicitly hidden. An API the
// super admin hid for this client reads 'Hidden by the platform' and cannot be changed here
// (its users get 403 whatever the partner sets). A search narrows the list by name, service or
// category.
import { useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { DataTable, slicePage, usePageParam } from '@/components/ui/data-table';
import { errorMessage } from '@/lib/api-client';
import { categoryShown, isShown, useVisibility } from '../api/get-visibility';
import type { VisibilityScope } from '../api/keys';
import { useSetVisibility, type VisibilityChange } from '../api/set-visibility';
import { ShowHide } from './show-hide';

/** A catalogue API as the list shows it. */
export type VisibleApi = { service: string; name: string; category: string };

const PAGE_SIZE = 50;
/** The spec's API status messages go after 2 seconds. */
const TOGGLE_MESSAGE_MS = 2000;

type Row = { key: string; category: string; name?: string; service?: string; shown: boolean; locked: boolean };

type Props = { scope: VisibilityScope; apis: VisibleApi[]; by: 'api' | 'category'; loading?: boolean; pageParam?: string };

export function VisibilityTable({ scope, apis, by, loading, pageParam = 'page' }: Props) {
  const v = useVisibility(scope);
  const set = useSetVisibility(scope);
  const msg = useTimedMessage(TOGGLE_MESSAGE_MS);
  const [page] = usePageParam(pageParam);

  const [search, setSearch] = useState('');
  const locked = new Set(v.data?.hidden_by_platform ?? []);
  const all: Row[] =
    by === 'api'
      ? apis.map((a) => ({
          key: a.service,
          category: a.category,
          name: a.name,
          service: a.service,
          shown: !locked.has(a.service) && isShown(v.data?.apis, a.service),
          locked: locked.has(a.service),
        }))
      : [...new Set(apis.map((a) => a.category))].sort((a, b) => a.localeCompare(b)).map((c) => ({ key: c, category: c, shown: categoryShown(v.data, c), locked: false }));
  const needle = search.trim().toLowerCase();
  const rows = needle ? all.filter((r) => [r.name, r.service, r.category].some((t) => t?.toLowerCase().includes(needle))) : all;
  const { rows: shownRows, pages } = slicePage(rows, page, PAGE_SIZE);

  const change = (r: Row, shown: boolean) => {
    const c: VisibilityChange = by === 'api' ? { kind: 'api', service: r.key, shown } : { kind: 'category', category: r.key, shown };
    const what = r.name ?? r.category;
    set.mutate(c, {
      onSuccess: () => msg.success(`${what} is ${shown ? 'shown' : 'hidden'}`),
      onError: (e) => msg.error(errorMessage(e)),
    });
  };

  const columns: ColumnDef<Row>[] = [
    { id: 'n', header: '#', cell: ({ row }) => (Math.min(page, Math.max(pages, 1)) - 1) * PAGE_SIZE + row.index + 1 },
    { id: 'category', header: 'Category', cell: ({ row }) => row.original.category },
    ...(by === 'api'
      ? ([
          { id: 'name', header: 'API name', cell: ({ row }) => row.original.name },
          { id: 'service', header: 'Service', cell: ({ row }) => <code>{row.original.service}</code> },
        ] satisfies ColumnDef<Row>[])
      : []),
    {
      id: 'status',
      header: 'Status',
      cell: ({ row }) => (
        <>
          <ShowHide
            label={row.original.name ?? row.original.category}
            name={`show-${row.original.key}`}
            shown={row.original.shown}
            disabled={set.isPending || !v.data || row.original.locked}
            onChange={(s) => change(row.original, s)}
          />
          {row.original.locked && <span className="muted">Hidden by the platform</span>}
        </>
      ),
    },
  ];

  return (
    <>
      <Alert message={msg.message} onClose={msg.clear} />
      <div className="table-search">
        <label htmlFor={`${pageParam}-search`}>Search</label>
        <input id={`${pageParam}-search`} type="search" placeholder={by === 'api' ? 'API name, service or category' : 'Category'} value={search} onChange={(e) => setSearch(e.target.value)} />
      </div>
      {v.isError && <Alert message={{ kind: 'error', text: errorMessage(v.error) }} />}
      <DataTable
        columns={columns}
        data={shownRows}
        pageCount={pages}
        pageSize={PAGE_SIZE}
        pageParam={pageParam}
        isLoading={loading || v.isLoading}
        emptyText="No apis available"
        getRowId={(r) => r.key}
      />
    </>
  );
}
