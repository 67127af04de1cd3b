// /superadmin/jobs: the operations view of the job queue, refreshed every few seconds: per
// kind what waits, runs and failed, with Pause and Resume; recent failures with Retry and
// Discard; the workers and what they run now; the throughput of the last hour; every job by
// state and kind, with bulk Retry and Discard; the periodic jobs. A job's detail opens over the
// page (`?job=ID`).
//
// The first three tables keep their order (the operations e2e spec finds them by position),
// and no heading but the page title says "Jobs" (the specs find that heading by name).
import { Alert } from '@/components/ui/alert';
import { useOperations } from '@/features/jobs/api/get-operations';
import { FailuresTable } from '@/features/jobs/components/failures-table';
import { JobPanel } from '@/features/jobs/components/job-panel';
import { JobsBrowser } from '@/features/jobs/components/jobs-browser';
import { PeriodicTable } from '@/features/jobs/components/periodic-table';
import { QueueTable } from '@/features/jobs/components/queue-table';
import { RunningTable } from '@/features/jobs/components/running-table';
import { ThroughputChart } from '@/features/jobs/components/throughput-chart';
import { WorkersProvider } from '@/features/jobs/components/worker-name';
import { WorkersTable } from '@/features/jobs/components/workers-table';
import { errorMessage } from '@/lib/api-client';

/** One empty list while the first answer loads, the same on every render. */
const NONE: [] = [];

export default function JobsPage() {
  const ops = useOperations();
  const d = ops.data;
  const running = d?.workers.filter((w) => w.status === 'running').length ?? 0;
  const kinds = d?.kinds.map((k) => k.kind) ?? NONE;
  const workers = d?.workers ?? NONE;
  return (
    <WorkersProvider workers={workers}>
      <section className="page">
        {ops.isError && <Alert message={{ kind: 'error', text: errorMessage(ops.error) }} />}
        <h2 className="ops-title">Queue</h2>
        <QueueTable kinds={d?.kinds ?? NONE} paused={d?.paused ?? NONE} isLoading={ops.isLoading} />
        <h2 className="ops-title">Recent failures</h2>
        <FailuresTable failures={d?.recent_failures ?? NONE} isLoading={ops.isLoading} />
        <h2 className="ops-title">
          Workers{d ? <span className="muted">{` · ${running} running`}</span> : null}
        </h2>
        <WorkersTable workers={workers} running={d?.running ?? NONE} isLoading={ops.isLoading} now={ops.dataUpdatedAt} />
        <h2 className="ops-title">Running now</h2>
        <RunningTable running={d?.running ?? NONE} workers={workers} isLoading={ops.isLoading} now={ops.dataUpdatedAt} />
        <h2 className="ops-title">Throughput</h2>
        <ThroughputChart kinds={kinds} />
        <h2 className="ops-title">Job list</h2>
        <JobsBrowser kinds={kinds} />
        <h2 className="ops-title">Periodic runs</h2>
        <PeriodicTable periodic={d?.periodic ?? NONE} isLoading={ops.isLoading} />
        <JobPanel />
      </section>
    </WorkersProvider>
  );
}
