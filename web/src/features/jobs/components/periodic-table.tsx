// The periodic jobs: each kind's schedule, its last run (with its state, opening its detail)
// and its next.
import type { ColumnDef } from '@tanstack/react-table';
import { DataTable } from '@/components/ui/data-table';
import { formatDate } from '@/lib/format';
import type { Periodic } from '../api/get-operations';
import { stateLabel } from '../api/states';
import { JobLink } from './job-link';

const columns: ColumnDef<Periodic>[] = [
  { id: 'kind', header: 'Job kind', cell: ({ row }) => <code>{row.original.kind}</code> },
  { id: 'schedule', header: 'Schedule (cron, with seconds)', cell: ({ row }) => <code className="nowrap">{row.original.schedule}</code> },
  {
    id: 'last',
    header: 'Last run',
    cell: ({ row }) => {
      const p = row.original;
      if (!p.last_job_id) return 'Not run yet';
      return (
        <span className="nowrap">
          {`${formatDate(p.last_run_at)} · `}
          <JobLink id={p.last_job_id} label={`${stateLabel(p.last_state)}: open the last ${p.kind} job`}>
            {stateLabel(p.last_state)}
          </JobLink>
        </span>
      );
    },
  },
  { id: 'next', header: 'Next run', cell: ({ row }) => <span className="nowrap">{formatDate(row.original.next_run_at)}</span> },
];

export function PeriodicTable({ periodic, isLoading }: { periodic: Periodic[]; isLoading: boolean }) {
  return (
    <DataTable
      columns={columns}
      data={periodic}
      pageCount={1}
      isLoading={isLoading}
      emptyText="No periodic job"
      hidePaging
      getRowId={(r) => r.kind}
    />
  );
}
