// User Detail, API Logs: the export request form and the list of requested exports (spec
// part 1 'User Detail' and §3 'Export request': createdAt, fromDate, toDate, totalRecords,
// status, links). The list polls while any request on the page is still in process.
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { usePageParam } from '@/components/ui/data-table';
import { QueryTable } from '@/components/ui/query-table';
import { ApiError, errorMessage, type AuthScope } from '@/lib/api-client';
import { formatCount, formatDate } from '@/lib/format';
import { useExport } from '../api/get-export';
import { useExports } from '../api/get-exports';
import { useRequestExport } from '../api/request-export';
import type { Export, ExportKind } from '../api/types';
import { ExportLinks, ExportStatusText } from './export-state';
import { ExportRangeForm } from './export-range-form';

const PAGE_SIZE = 50;

function columnsFor(page: number): ColumnDef<Export>[] {
  return [
    { id: 'n', header: '#', cell: ({ row }) => (page - 1) * PAGE_SIZE + row.index + 1 },
    { id: 'created', header: 'Created At', cell: ({ row }) => formatDate(row.original.created_at) },
    { id: 'from', header: 'From Date', cell: ({ row }) => row.original.from },
    { id: 'to', header: 'To Date', cell: ({ row }) => row.original.to },
    {
      id: 'total',
      header: 'Total Records',
      cell: ({ row }) => (row.original.total_records == null ? '_' : formatCount(row.original.total_records)),
    },
    { id: 'status', header: 'Status', cell: ({ row }) => <ExportStatusText item={row.original} /> },
    { id: 'links', header: 'Links', cell: ({ row }) => <ExportLinks item={row.original} /> },
  ];
}

type Props = { kind: ExportKind; userId?: number; auth?: AuthScope };

export function ExportRequests({ kind, userId, auth }: Props) {
  const [page] = usePageParam('exports_page');
  const list = useExports({ kind, userId }, page, auth);
  const request = useRequestExport(auth);
  const [requested, setRequested] = useState<number | null>(null);
  // The request just made, polled on its own so the screen can say when it is ready.
  const latest = useExport(requested, auth);
  const ready = requested !== null && latest.data?.status === 'completed';

  const fieldErrors = request.error instanceof ApiError ? request.error.fields : undefined;
  const generalError = request.error && !(fieldErrors && Object.keys(fieldErrors).length) ? errorMessage(request.error) : null;

  return (
    <section className="export-requests" aria-label="Export requests">
      <h3>Export request</h3>
      {generalError && <Alert message={{ kind: 'error', text: generalError }} />}
      {ready && <Alert message={{ kind: 'success', text: 'CSV is ready to download' }} onClose={() => setRequested(null)} />}
      <ExportRangeForm
        idPrefix={`requests-${kind}`}
        submitLabel="Request export"
        pending={request.isPending}
        serverErrors={fieldErrors}
        onSubmit={(range) => request.mutate({ kind, user_id: userId, ...range }, { onSuccess: (r) => setRequested(r.export_id) })}
      />
      <h3>Requested exports</h3>
      <QueryTable
        query={list}
        columns={columnsFor(page)}
        pageSize={PAGE_SIZE}
        pageParam="exports_page"
        emptyText="No requests found"
        pagingLabel={(p, n) => `${p} of ${n} pages`}
        getRowId={(r) => String(r.id)}
      />
    </section>
  );
}
