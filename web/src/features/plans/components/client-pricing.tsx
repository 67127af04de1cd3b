// Client details, API Pricing: the client's customised prices with a category filter ('All'
// plus the distinct lower-cased categories), 10 per page, 'Add new' and Edit.
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { usePageParam } from '@/components/ui/data-table';
import { QueryTable } from '@/components/ui/query-table';
import { formatDate, formatRupees } from '@/lib/format';
import { useClientPrices, type CustomPrice } from '../api/get-client-prices';
import { ClientPriceModal, type ServiceOption } from './client-price-modal';

/** The server's categories, plus the chosen one when its last entry was just deleted. */
const categoriesWith = (list: string[], chosen: string) => (chosen === 'all' || list.includes(chosen) ? list : [...list, chosen]);

export function ClientPricing({ clientId, services }: { clientId: number; services: ServiceOption[] }) {
  const [params, setParams] = useSearchParams();
  const category = params.get('category') ?? 'all';
  const [page] = usePageParam();
  const prices = useClientPrices(clientId, category, page);
  const msg = useTimedMessage();
  const [editing, setEditing] = useState<CustomPrice | 'new' | null>(null);

  const setCategory = (c: string) =>
    setParams((prev) => {
      const p = new URLSearchParams(prev);
      p.delete('page');
      if (c === 'all') p.delete('category');
      else p.set('category', c);
      return p;
    });

  const columns: ColumnDef<CustomPrice>[] = [
    { id: 'name', header: 'Name', cell: ({ row }) => row.original.name },
    { id: 'category', header: 'Category', cell: ({ row }) => row.original.category.toLowerCase() },
    { id: 'price', header: 'Price', cell: ({ row }) => formatRupees(row.original.price_paise) },
    { id: 'status', header: 'Status', cell: ({ row }) => (row.original.status ? 'Active' : 'Inactive') },
    { id: 'created', header: 'Created', cell: ({ row }) => formatDate(row.original.created_at) },
    { id: 'updated', header: 'Updated', cell: ({ row }) => formatDate(row.original.updated_at) },
    {
      id: 'edit',
      header: '',
      cell: ({ row }) => (
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => setEditing(row.original)}>
          Edit
        </button>
      ),
    },
  ];

  return (
    <div className="page">
      <div className="toolbar">
        <label className="inline-field">
          <span>Category</span>
          <select value={category} onChange={(e) => setCategory(e.target.value)} aria-label="Category">
            <option value="all">All</option>
            {categoriesWith(prices.data?.categories ?? [], category).map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="btn btn-primary" onClick={() => setEditing('new')}>
          Add new
        </button>
      </div>
      <Alert message={msg.message} onClose={msg.clear} />
      <QueryTable
        query={prices}
        columns={columns}
        pageSize={10}
        emptyText="No data"
        getRowId={(r) => r.service}
      />
      {editing && (
        <ClientPriceModal
          clientId={clientId}
          entry={editing === 'new' ? null : editing}
          services={services}
          onClose={() => setEditing(null)}
          onDone={(text) => {
            setEditing(null);
            msg.success(text);
          }}
        />
      )}
    </div>
  );
}
