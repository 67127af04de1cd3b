// One row per job kind: what waits, runs, failed, and what got done.
import type { ColumnDef } from '@tanstack/react-table';
import { DataTable } from '@/components/ui/data-table';
import { formatCount } from '@/lib/format';
import type { KindStats } from '../api/get-operations';
import { formatSecs } from './time';

const count = (n: number) => formatCount(n);

const columns: ColumnDef<KindStats>[] = [
  { id: 'kind', header: 'Job kind', cell: ({ row }) => <code>{row.original.kind}</code> },
  { id: 'queued', header: 'Queued', cell: ({ row }) => count(row.original.queued) },
  { id: 'running', header: 'Running', cell: ({ row }) => count(row.original.running) },
  { id: 'retrying', header: 'Retrying', cell: ({ row }) => count(row.original.retrying) },
  {
    id: 'failed',
    header: 'Failed',
    cell: ({ row }) => <span className={row.original.failed > 0 ? 'text-danger' : undefined}>{count(row.original.failed)}</span>,
  },
  { id: 'done', header: 'Done (last hour)', cell: ({ row }) => count(row.original.done_last_hour) },
  { id: 'rate', header: 'Per minute', cell: ({ row }) => count(row.original.done_last_minute) },
  {
    id: 'oldest',
    header: 'Oldest waiting',
    cell: ({ row }) => (row.original.oldest_queued_secs > 0 ? formatSecs(row.original.oldest_queued_secs) : '_'),
  },
];

export function QueueTable({ kinds, isLoading }: { kinds: KindStats[]; isLoading: boolean }) {
  return (
    <DataTable
      columns={columns}
      data={kinds}
      pageCount={1}
      isLoading={isLoading}
      emptyText="No data"
      hidePaging
      getRowId={(r) => r.kind}
    />
  );
}
