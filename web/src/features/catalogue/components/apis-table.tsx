// API's (super admin): the catalogue, 10 per page, 'Add new', and Edit opening the modal.
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { usePageParam } from '@/components/ui/data-table';
import { QueryTable } from '@/components/ui/query-table';
import { formatRupees } from '@/lib/format';
import { useApis } from '../api/get-apis';
import type { CatalogueApi } from '../api/types';
import { ApiFormModal } from './api-form-modal';

const PAGE_SIZE = 10;

export function ApisTable() {
  const [page] = usePageParam();
  const apis = useApis(page);
  const msg = useTimedMessage();
  const [editing, setEditing] = useState<CatalogueApi | 'new' | null>(null);

  const columns: ColumnDef<CatalogueApi>[] = [
    { id: 'n', header: '#', cell: ({ row }) => (page - 1) * PAGE_SIZE + row.index + 1 },
    { id: 'name', header: 'Name', cell: ({ row }) => row.original.name },
    { id: 'category', header: 'Category', cell: ({ row }) => row.original.category },
    { id: 'service', header: 'Service', cell: ({ row }) => row.original.service },
    { id: 'pid', header: 'PID', cell: ({ row }) => row.original.pid },
    { id: 'method', header: 'Method', cell: ({ row }) => row.original.method },
    { id: 'price', header: 'Price', cell: ({ row }) => formatRupees(row.original.default_price_paise) },
    { id: 'status', header: 'Status', cell: ({ row }) => (row.original.status ? 'Active' : 'Inactive') },
    {
      id: 'edit',
      header: '',
      cell: ({ row }) => (
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => setEditing(row.original)} aria-label={`Edit ${row.original.name}`}>
          Edit
        </button>
      ),
    },
  ];

  return (
    <div className="page">
      <div className="toolbar">
        <span className="muted">{apis.data ? `${apis.data.total} APIs` : ''}</span>
        <button type="button" className="btn btn-primary" onClick={() => setEditing('new')}>
          Add new
        </button>
      </div>
      <Alert message={msg.message} onClose={msg.clear} />
      <QueryTable
        query={apis}
        columns={columns}
        pageSize={PAGE_SIZE}
        emptyText="No apis available"
        getRowId={(r) => String(r.id)}
      />
      {editing && (
        <ApiFormModal
          api={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onDone={(text) => {
            setEditing(null);
            msg.success(text, 1000);
          }}
        />
      )}
    </div>
  );
}
