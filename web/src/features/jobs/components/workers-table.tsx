// Worker processes seen in the last 15 minutes: scaling up or down shows here within a heartbeat.
import type { ColumnDef } from '@tanstack/react-table';
import { DataTable } from '@/components/ui/data-table';
import { formatDate } from '@/lib/format';
import type { RunningJob, WorkerProcess } from '../api/get-operations';
import { ago } from './time';

const STATUS: Record<WorkerProcess['status'], string> = {
  running: 'Running',
  stalled: 'Not fetching',
  stopped: 'Stopped',
  missing: 'No heartbeat',
};

export function WorkersTable({
  workers,
  running = [],
  isLoading,
  now,
}: {
  workers: WorkerProcess[];
  /** The jobs running now: each worker's count, listed under "Running now". */
  running?: RunningJob[];
  isLoading: boolean;
  now: number;
}) {
  const columns: ColumnDef<WorkerProcess>[] = [
    { id: 'host', header: 'Host', cell: ({ row }) => row.original.host },
    { id: 'pid', header: 'PID', cell: ({ row }) => row.original.pid },
    {
      id: 'status',
      header: 'Status',
      cell: ({ row }) => (
        <span className={`worker-status worker-${row.original.status}`}>{STATUS[row.original.status]}</span>
      ),
    },
    { id: 'started', header: 'Started', cell: ({ row }) => formatDate(row.original.started_at) },
    { id: 'seen', header: 'Last heartbeat', cell: ({ row }) => ago(row.original.last_seen_at, now) },
    { id: 'concurrency', header: 'Concurrency', cell: ({ row }) => row.original.concurrency },
    { id: 'jobs', header: 'Jobs now', cell: ({ row }) => running.filter((r) => r.worker === row.original.id).length },
  ];
  return (
    <DataTable
      columns={columns}
      data={workers}
      pageCount={1}
      isLoading={isLoading}
      emptyText="No worker has run in the last 15 minutes"
      hidePaging
      getRowId={(r) => r.id}
    />
  );
}
