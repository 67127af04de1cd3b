// Every job of one state (and a kind, or every kind), a page at a time from the server; each
// id opens the job's detail. The state, kind and page live in the URL (style.md). Retry all
// and Discard all act on the filter shown.
import type { ColumnDef } from '@tanstack/react-table';
import { useCallback, useId } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { usePageParam } from '@/components/ui/data-table';
import { QueryTable } from '@/components/ui/query-table';
import { Tabs, useTabParam } from '@/components/ui/tabs';
import { formatCount, formatDate } from '@/lib/format';
import { JOBS_PAGE_SIZE, useJobs, type JobRow } from '../api/get-jobs';
import { JOB_STATES, STATE_LABELS, attemptsOf, stateLabel } from '../api/states';
import { BulkActions } from './bulk-actions';
import { JobLink } from './job-link';
import { WorkerName } from './worker-name';

export const STATE_PARAM = 'state';
export const KIND_PARAM = 'kind';

/** The kind filter in the URL (`?kind=send_mail`); changing it goes back to page 1. */
function useKindParam(): [string, (kind: string) => void] {
  const [params, setParams] = useSearchParams();
  const set = useCallback(
    (kind: string) =>
      setParams((prev) => {
        const p = new URLSearchParams(prev);
        if (kind) p.set(KIND_PARAM, kind);
        else p.delete(KIND_PARAM);
        p.delete('page');
        return p;
      }),
    [setParams],
  );
  return [params.get(KIND_PARAM) ?? '', set];
}

// Constant: TanStack renders each cell function as a component, and new ones on every poll
// would remount the links (and lose a keyboard user's focus) every few seconds.
const columns: ColumnDef<JobRow>[] = [
  { id: 'id', header: 'Job id', cell: ({ row }) => <JobLink id={row.original.id} /> },
  { id: 'kind', header: 'Job kind', cell: ({ row }) => <code>{row.original.kind}</code> },
  { id: 'state', header: 'State', cell: ({ row }) => stateLabel(row.original.state) },
  { id: 'attempts', header: 'Attempts', cell: ({ row }) => attemptsOf(row.original.attempts, row.original.max_attempts) },
  { id: 'due', header: 'Due', cell: ({ row }) => <span className="nowrap">{formatDate(row.original.run_at)}</span> },
  { id: 'finished', header: 'Finished', cell: ({ row }) => <span className="nowrap">{formatDate(row.original.finished_at)}</span> },
  { id: 'worker', header: 'Worker', cell: ({ row }) => <WorkerName id={row.original.worker} /> },
  { id: 'error', header: 'Last error', cell: ({ row }) => <span className="job-error">{row.original.last_error ?? '_'}</span> },
];

export function JobsBrowser({ kinds }: { kinds: string[] }) {
  const [state, setState] = useTabParam(JOB_STATES, 'queued', STATE_PARAM);
  const [kind, setKind] = useKindParam();
  const [page] = usePageParam();
  const jobs = useJobs({ state, kind, page });
  const msg = useTimedMessage();
  const kindId = useId();
  // A kind in the URL that the page does not list (yet) stays choosable.
  const options = kind && !kinds.includes(kind) ? [...kinds, kind] : kinds;


  return (
    <Tabs tabs={JOB_STATES.map((s) => ({ key: s, label: STATE_LABELS[s] }))} active={state} onChange={setState}>
      <Alert message={msg.message} onClose={msg.clear} />
      <div className="toolbar">
        <div className="inline-field">
          <label htmlFor={kindId}>Job kind</label>
          <select id={kindId} value={kind} onChange={(e) => setKind(e.target.value)}>
            <option value="">All kinds</option>
            {options.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </div>
        {jobs.data && <span className="muted">{`${formatCount(jobs.data.total)} ${jobs.data.total === 1 ? 'job' : 'jobs'}`}</span>}
        <BulkActions
          state={state}
          kind={kind}
          // Not the count of the previous filter while the new one loads.
          total={jobs.isPlaceholderData ? undefined : jobs.data?.total}
          onDone={(k, text) => (k === 'success' ? msg.success(text) : msg.error(text))}
        />
      </div>
      <QueryTable
        query={jobs}
        columns={columns}
        pageSize={JOBS_PAGE_SIZE}
        emptyText={`No ${stateLabel(state).toLowerCase()} jobs`}
        getRowId={(r) => r.id}
      />
    </Tabs>
  );
}
