// The APIs this user may call: price (what the user pays), category, required fields, whether
// sandbox keys and the console may call it, and each API's documentation (api-doc.tsx).
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { DataTable, slicePage, usePageParam } from '@/components/ui/data-table';
import { Modal } from '@/components/ui/modal';
import { errorMessage } from '@/lib/api-client';
import { formatRupees } from '@/lib/format';
import { useApis, type Offer } from '../api/apis';
import { portalPaths } from '../paths';
import { ApiDoc } from './api-doc';

const PAGE_SIZE = 25;

export function ApisList({ origin = window.location.origin }: { origin?: string }) {
  const apis = useApis();
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState('');
  const [page, setPage] = usePageParam();
  const [docFor, setDocFor] = useState<Offer | null>(null);

  const categories = useMemo(() => [...new Set((apis.data ?? []).map((a) => a.category))].sort(), [apis.data]);
  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    return (apis.data ?? []).filter(
      (a) => (!category || a.category === category) && (!q || a.name.toLowerCase().includes(q) || a.service.toLowerCase().includes(q)),
    );
  }, [apis.data, search, category]);
  const { rows, pages } = slicePage(shown, page, PAGE_SIZE);

  const columns: ColumnDef<Offer>[] = [
    {
      header: 'API',
      cell: ({ row }) => (
        <div>
          <div>{row.original.name}</div>
          <code className="small muted">{row.original.service}</code>
        </div>
      ),
    },
    { header: 'Category', accessorKey: 'category' },
    { header: 'Price per call', cell: ({ row }) => <span className="nowrap">{formatRupees(row.original.price_paise)}</span> },
    {
      header: 'Required fields',
      cell: ({ row }) =>
        row.original.required_fields.length ? (
          <span className="field-names">
            {row.original.required_fields.map((f) => (
              <code key={f}>{f}</code>
            ))}
          </span>
        ) : (
          <span className="muted">None</span>
        ),
    },
    {
      header: 'Sandbox',
      cell: ({ row }) =>
        row.original.sandbox ? <span className="badge badge-success">Yes</span> : <span className="badge badge-muted">No</span>,
    },
    {
      header: 'Example',
      cell: ({ row }) => (
        <div className="row-actions">
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => setDocFor(row.original)} aria-label={`Documentation of ${row.original.name}`}>
            Docs
          </button>
          {row.original.sandbox && (
            <Link
              className="btn btn-outline btn-sm"
              to={`${portalPaths.tryIt}?service=${encodeURIComponent(row.original.service)}`}
              aria-label={`Try ${row.original.name}`}
            >
              Try
            </Link>
          )}
        </div>
      ),
    },
  ];

  if (apis.isError) return <p role="alert">{errorMessage(apis.error)}</p>;

  return (
    <>
      <div className="filter-panel">
        <div className="filter-fields">
          <div className="field">
            <label htmlFor="apis-search">Search</label>
            <input
              id="apis-search"
              type="text"
              placeholder="Name or service code"
              value={search}
              onChange={(e) => {
                setSearch(e.target.value);
                setPage(1);
              }}
            />
          </div>
          <div className="field">
            <label htmlFor="apis-category">Category</label>
            <select
              id="apis-category"
              value={category}
              onChange={(e) => {
                setCategory(e.target.value);
                setPage(1);
              }}
            >
              <option value="">All categories</option>
              {categories.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </div>
        </div>
      </div>
      <DataTable
        columns={columns}
        data={rows}
        pageCount={pages}
        pageSize={PAGE_SIZE}
        isLoading={apis.isPending}
        emptyText={apis.data?.length ? 'No API matches the search.' : 'No APIs are available to you yet. Please contact us.'}
        getRowId={(r) => r.service}
      />
      <Modal open={!!docFor} title={docFor ? docFor.name : undefined} onClose={() => setDocFor(null)} size="lg">
        {docFor && <ApiDoc origin={origin} offer={docFor} />}
      </Modal>
    </>
  );
}
