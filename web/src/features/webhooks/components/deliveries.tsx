// One endpoint's delivery log: each event with its status, every attempt (status code, latency,
// the answer's first 1 KB) and the next attempt's time; Replay sends the event again.
import type { ColumnDef } from '@tanstack/react-table';
import { usePageParam } from '@/components/ui/data-table';
import { QueryTable } from '@/components/ui/query-table';
import { formatDate } from '@/lib/format';
import type { Delivery, Endpoint, WebhookScope } from '../api/types';
import { DELIVERIES_PAGE_SIZE, useDeliveries, useReplay } from '../api/webhooks';

const STATUS: Record<Delivery['status'], string> = { pending: 'Pending', succeeded: 'Succeeded', failed: 'Failed' };

export function Deliveries({ scope, endpoint, onError }: { scope: WebhookScope; endpoint: Endpoint; onError: (err: unknown) => void }) {
  const [page] = usePageParam('deliveries');
  const q = useDeliveries(scope, endpoint.id, page);
  const replay = useReplay(scope);

  const columns: ColumnDef<Delivery>[] = [
    {
      header: 'Event',
      cell: ({ row }) => (
        <>
          <div>{row.original.type}</div>
          <code className="muted break-all">{row.original.event_id}</code>
        </>
      ),
    },
    { header: 'Status', cell: ({ row }) => <span data-testid="delivery-status">{STATUS[row.original.status]}</span> },
    {
      header: 'Attempts',
      cell: ({ row }) =>
        row.original.attempts.length === 0 ? (
          'None yet'
        ) : (
          <ol className="attempts">
            {row.original.attempts.map((a, i) => (
              <li key={i}>
                <span className="nowrap">{formatDate(a.at)}</span>: {a.status_code ?? 'no answer'}, {a.latency_ms} ms
                {a.response_excerpt && (
                  <details>
                    <summary>Answer</summary>
                    <pre className="break-all">{a.response_excerpt}</pre>
                  </details>
                )}
              </li>
            ))}
          </ol>
        ),
    },
    { header: 'Next attempt', cell: ({ row }) => (row.original.next_attempt_at ? formatDate(row.original.next_attempt_at) : '–') },
    {
      header: 'Actions',
      cell: ({ row }) => (
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={!endpoint.enabled || replay.isPending}
          aria-label={`Replay ${row.original.event_id}`}
          onClick={() => replay.mutate(row.original.id, { onError })}
        >
          Replay
        </button>
      ),
    },
  ];

  return (
    <section aria-label="Deliveries">
      <h2 className="panel-title">
        Deliveries to <code className="break-all">{endpoint.url}</code>
      </h2>
      <QueryTable
        query={q}
        columns={columns}
        pageSize={DELIVERIES_PAGE_SIZE}
        pageParam="deliveries"
        emptyText="No deliveries yet. Send a test event."
        getRowId={(d) => String(d.id)}
      />
    </section>
  );
}
