// What each worker process runs now, grouped by worker (the queue's `lock_by` is the
// process's id), oldest first within each.
import type { ColumnDef } from '@tanstack/react-table';
import { createContext, useContext } from 'react';
import { DataTable } from '@/components/ui/data-table';
import { formatDate } from '@/lib/format';
import type { RunningJob, WorkerProcess } from '../api/get-operations';
import { JobLink } from './job-link';
import { ago } from './time';
import { WorkerName } from './worker-name';

/** The running jobs, those of one worker together, workers in the order the page lists them. */
export function byWorker(running: RunningJob[], workers: WorkerProcess[]): RunningJob[] {
  const rank = (w: string) => {
    const i = workers.findIndex((p) => p.id === w);
    return i < 0 ? workers.length : i;
  };
  // A stable sort keeps the server's oldest-first order inside each worker.
  return [...running].sort((a, b) => rank(a.worker) - rank(b.worker) || a.worker.localeCompare(b.worker));
}

/** The time of the last poll: the cells read it here, so the columns stay the same between polls. */
const Now = createContext(0);

function Started({ at }: { at: string | null }) {
  const now = useContext(Now);
  return <span title={formatDate(at)}>{ago(at, now)}</span>;
}

// Constant, so the links keep their focus between polls (TanStack renders cells as components).
const columns: ColumnDef<RunningJob>[] = [
  { id: 'worker', header: 'Worker', cell: ({ row }) => <WorkerName id={row.original.worker} /> },
  { id: 'kind', header: 'Job kind', cell: ({ row }) => <code>{row.original.kind}</code> },
  { id: 'id', header: 'Job id', cell: ({ row }) => <JobLink id={row.original.id} /> },
  { id: 'started', header: 'Started', cell: ({ row }) => <Started at={row.original.started_at} /> },
];

export function RunningTable({
  running,
  workers,
  isLoading,
  now,
}: {
  running: RunningJob[];
  workers: WorkerProcess[];
  isLoading: boolean;
  now: number;
}) {
  return (
    <Now.Provider value={now}>
      <DataTable
        columns={columns}
        data={byWorker(running, workers)}
        pageCount={1}
        isLoading={isLoading}
        emptyText="No job is running"
        hidePaging
        getRowId={(r) => r.id}
      />
    </Now.Provider>
  );
}
