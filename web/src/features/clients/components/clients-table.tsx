// Clients: 50 per page, columns user id, name, date, e-mail, phone and View details; a filter
// panel whose results are shown without paging. Page and filters live in the URL.
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { usePageParam } from '@/components/ui/data-table';
import { QueryTable } from '@/components/ui/query-table';
import { formatDate } from '@/lib/format';
import { CLIENT_FILTERS, hasFilters, useClients, type ClientFilters } from '../api/get-clients';
import { clientName, type Client } from '../api/types';
import { ClientsFilter } from './clients-filter';

export function ClientsTable({ onView }: { onView: (c: Client) => void }) {
  const [params, setParams] = useSearchParams();
  const [page] = usePageParam();
  const filterKey = CLIENT_FILTERS.map((k) => params.get(k) ?? '').join('\u0000');
  // A new object only when a filter changes, so the panel does not reset on every render.
  const filters = useMemo(() => {
    const values = filterKey.split('\u0000');
    return Object.fromEntries(CLIENT_FILTERS.map((k, i) => [k, values[i]])) as ClientFilters;
  }, [filterKey]);
  const searching = hasFilters(filters);
  const [showFilter, setShowFilter] = useState(searching);
  const clients = useClients(page, filters);

  const apply = (f: ClientFilters) =>
    setParams(() => {
      const p = new URLSearchParams();
      for (const k of CLIENT_FILTERS) if (f[k]) p.set(k, f[k]);
      return p;
    });

  const columns: ColumnDef<Client>[] = [
    { id: 'id', header: 'User Id', cell: ({ row }) => row.original.id },
    { id: 'name', header: 'Name', cell: ({ row }) => clientName(row.original) },
    { id: 'date', header: 'Date', cell: ({ row }) => formatDate(row.original.created_at) },
    { id: 'email', header: 'E-mail', cell: ({ row }) => row.original.email },
    { id: 'phone', header: 'Phone', cell: ({ row }) => row.original.phone_number || '_' },
    {
      id: 'view',
      header: '',
      cell: ({ row }) => (
        <button type="button" className="btn btn-primary btn-sm" onClick={() => onView(row.original)}>
          View details
        </button>
      ),
    },
  ];

  return (
    <div className="page clients-list">
      <div className="toolbar">
        <span className="muted">{clients.data ? `${clients.data.total} clients` : ''}</span>
        <button type="button" className="btn btn-secondary" aria-expanded={showFilter} onClick={() => setShowFilter((s) => !s)}>
          Filter
        </button>
      </div>
      {showFilter && <ClientsFilter value={filters} onApply={apply} onClear={() => apply({ first_name: '', last_name: '', email: '', phone_number: '', user_id: '' })} />}
      <QueryTable
        query={clients}
        columns={columns}
        pageSize={50}
        emptyText="No data"
        hidePaging={searching}
        getRowId={(r) => String(r.id)}
      />
    </div>
  );
}
