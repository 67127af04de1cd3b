// The detail of the job named in the URL (`?job=ID`): kind, state, arguments, every attempt
// with its time, duration and error, and when it runs next; Retry and Discard while it has
// failed, Revive once discarded. It follows the job as it moves on (polled).
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { DataTable } from '@/components/ui/data-table';
import { Modal } from '@/components/ui/modal';
import { useToast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { useJobAction, type JobAction } from '../api/act-on-job';
import { useJob, type JobAttempt, type JobDetail } from '../api/get-job';
import { attemptsOf, canDiscard, canRetry, canRevive, stateLabel } from '../api/states';
import { formatMs } from './format';
import { JOB_PARAM } from './job-link';
import { WorkerName } from './worker-name';

const OUTCOMES: Record<string, string> = {
  done: 'Done',
  retrying: 'Failed, retried',
  failed: 'Failed',
  lost: 'Worker lost',
};

export function JobPanel() {
  const [params, setParams] = useSearchParams();
  const id = params.get(JOB_PARAM);
  const job = useJob(id);
  const close = () =>
    setParams((prev) => {
      const p = new URLSearchParams(prev);
      p.delete(JOB_PARAM);
      return p;
    });
  const j = job.data;
  return (
    <Modal open={!!id} title={j ? `${j.kind} job` : 'Job'} onClose={close} size="lg">
      {job.isError && <Alert message={{ kind: 'error', text: errorMessage(job.error) }} />}
      {job.isLoading && <p>Loading...</p>}
      {j && <JobView key={j.id} job={j} />}
    </Modal>
  );
}

function JobView({ job }: { job: JobDetail }) {
  const action = useJobAction();
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const act = (what: JobAction) => {
    setError(null);
    action.mutate(
      { id: job.id, action: what },
      {
        onSuccess: () => toast.show(what === 'discard' ? 'Job discarded' : 'Job queued again'),
        onError: (e) => setError(errorMessage(e)),
        onSettled: () => setConfirming(false),
      },
    );
  };

  // One maximum for the job and each of its attempts: "1 of 2, 2 of 2", never "2 of 1".
  const max = Math.max(job.attempts, job.max_attempts, ...job.history.map((a) => a.attempt));
  const columns = useMemo<ColumnDef<JobAttempt>[]>(
    () => [
      { id: 'attempt', header: 'Attempt', cell: ({ row }) => <span className="nowrap">{attemptsOf(row.original.attempt, max)}</span> },
      { id: 'started', header: 'Started', cell: ({ row }) => <span className="nowrap">{formatDate(row.original.started_at)}</span> },
      { id: 'duration', header: 'Duration', cell: ({ row }) => <span className="nowrap">{formatMs(row.original.duration_ms)}</span> },
      { id: 'outcome', header: 'Outcome', cell: ({ row }) => OUTCOMES[row.original.outcome] ?? row.original.outcome },
      { id: 'error', header: 'Error', cell: ({ row }) => <span className="job-error">{row.original.error ?? '_'}</span> },
      { id: 'worker', header: 'Worker', cell: ({ row }) => <WorkerName id={row.original.worker} /> },
    ],
    [max],
  );

  return (
    <div className="job-view">
      {error && <Alert message={{ kind: 'error', text: error }} onClose={() => setError(null)} />}
      <dl className="detail-grid">
        <div>
          <dt>Job id</dt>
          <dd>
            <code>{job.id}</code>
          </dd>
        </div>
        <div>
          <dt>Job kind</dt>
          <dd>
            <code>{job.kind}</code>
          </dd>
        </div>
        <div>
          <dt>State</dt>
          <dd data-testid="job-state">{stateLabel(job.state)}</dd>
        </div>
        <div>
          <dt>Attempts</dt>
          <dd>{attemptsOf(job.attempts, max)}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatDate(job.created_at)}</dd>
        </div>
        <div>
          <dt>Next attempt</dt>
          <dd>{formatDate(job.next_run_at)}</dd>
        </div>
        <div>
          <dt>Finished</dt>
          <dd>{formatDate(job.finished_at)}</dd>
        </div>
        <div>
          <dt>Worker</dt>
          <dd>
            <WorkerName id={job.worker} />
          </dd>
        </div>
      </dl>
      {job.last_error && (
        <>
          <h3 className="ops-title">Last error</h3>
          <p className="job-error">{job.last_error}</p>
        </>
      )}
      <h3 className="ops-title">Arguments</h3>
      {/* Focusable: a long payload scrolls, and a keyboard must reach it (axe: scrollable-region-focusable). */}
      <pre className="mail-text" tabIndex={0}>
        {JSON.stringify(job.args, null, 2)}
      </pre>
      <h3 className="ops-title">Attempts</h3>
      <DataTable
        columns={columns}
        data={job.history}
        pageCount={1}
        emptyText="Not run yet"
        hidePaging
        pageParam="attempts_page"
        getRowId={(a, i) => `${a.attempt}-${i}`}
      />
      <div className="button-row">
        {confirming ? (
          <>
            <span>{`The ${job.kind} job will not run again.`}</span>
            <button type="button" className="btn btn-secondary" onClick={() => setConfirming(false)}>
              Cancel
            </button>
            <button type="button" className="btn btn-danger" disabled={action.isPending} onClick={() => act('discard')}>
              {action.isPending ? 'Wait...' : 'Discard'}
            </button>
          </>
        ) : (
          <>
            {canRetry(job.state) && (
              <button type="button" className="btn btn-primary" disabled={action.isPending} onClick={() => act('retry')}>
                Retry
              </button>
            )}
            {canDiscard(job.state) && (
              <button type="button" className="btn btn-secondary" disabled={action.isPending} onClick={() => setConfirming(true)}>
                Discard
              </button>
            )}
            {canRevive(job.state) && (
              <button type="button" className="btn btn-primary" disabled={action.isPending} onClick={() => act('revive')}>
                Revive
              </button>
            )}
          </>
        )}
      </div>
    </div>
  );
}
