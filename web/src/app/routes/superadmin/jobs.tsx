// /superadmin/jobs: the operations view of the job queue, refreshed every few seconds: per
// kind what waits, runs and failed; recent failures with Retry and Discard; the workers.
import { Alert } from '@/components/ui/alert';
import { useOperations } from '@/features/jobs/api/get-operations';
import { FailuresTable } from '@/features/jobs/components/failures-table';
import { QueueTable } from '@/features/jobs/components/queue-table';
import { WorkersTable } from '@/features/jobs/components/workers-table';
import { errorMessage } from '@/lib/api-client';

export default function JobsPage() {
  const ops = useOperations();
  const d = ops.data;
  const running = d?.workers.filter((w) => w.status === 'running').length ?? 0;
  return (
    <section className="page">
      {ops.isError && <Alert message={{ kind: 'error', text: errorMessage(ops.error) }} />}
      <h2 className="ops-title">Queue</h2>
      <QueueTable kinds={d?.kinds ?? []} isLoading={ops.isLoading} />
      <h2 className="ops-title">Recent failures</h2>
      <FailuresTable failures={d?.recent_failures ?? []} isLoading={ops.isLoading} />
      <h2 className="ops-title">
        Workers{d ? <span className="muted">{` · ${running} running`}</span> : null}
      </h2>
      <WorkersTable workers={d?.workers ?? []} isLoading={ops.isLoading} now={ops.dataUpdatedAt} />
    </section>
  );
}
