// One row per job kind: what waits, runs, failed, and what got done; a paused kind says so and
// can be resumed, any other can be paused (after confirming).
import type { ColumnDef } from '@tanstack/react-table';
import { useCallback, useMemo, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DataTable } from '@/components/ui/data-table';
import { useToast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-client';
import { formatCount, formatDate } from '@/lib/format';
import type { KindStats, Pause } from '../api/get-operations';
import { usePauseKind, type KindAction } from '../api/pause-kind';
import { formatSecs } from './time';

const count = (n: number) => formatCount(n);
const NOT_PAUSED: Pause[] = [];

export function QueueTable({ kinds, paused = NOT_PAUSED, isLoading }: { kinds: KindStats[]; paused?: Pause[]; isLoading: boolean }) {
  const { mutate, isPending } = usePauseKind();
  const toast = useToast();
  const [pausing, setPausing] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const run = useCallback(
    (kind: string, action: KindAction) => {
      setError(null);
      mutate(
        { kind, action },
        {
          onSuccess: () => toast.show(action === 'pause' ? `${kind} paused` : `${kind} resumed`),
          onError: (e) => setError(errorMessage(e)),
          onSettled: () => setPausing(null),
        },
      );
    },
    [mutate, toast],
  );

  // Built again only when what the cells show changes: TanStack renders each cell function as
  // a component, so a new one on every poll would remount the buttons and lose their focus.
  const columns = useMemo<ColumnDef<KindStats>[]>(() => {
    const pauseOf = (kind: string) => paused.find((p) => p.kind === kind);
    return [
      {
        id: 'kind',
        header: 'Job kind',
        cell: ({ row }) => {
          const p = pauseOf(row.original.kind);
          return (
            <span className="nowrap">
              <code>{row.original.kind}</code>
              {p && (
                <>
                  {' '}
                  <span className="badge badge-muted" title={`Paused ${formatDate(p.paused_at)} by ${p.paused_by}`}>
                    Paused
                  </span>
                </>
              )}
            </span>
          );
        },
      },
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
      {
        id: 'actions',
        header: 'Actions',
        cell: ({ row }) => {
          const kind = row.original.kind;
          return pauseOf(kind) ? (
            <button type="button" className="btn btn-primary btn-sm" disabled={isPending} onClick={() => run(kind, 'resume')} aria-label={`Resume ${kind}`}>
              Resume
            </button>
          ) : (
            <button type="button" className="btn btn-secondary btn-sm" disabled={isPending} onClick={() => setPausing(kind)} aria-label={`Pause ${kind}`}>
              Pause
            </button>
          );
        },
      },
    ];
  }, [paused, isPending, run]);

  return (
    <>
      {error && <Alert message={{ kind: 'error', text: error }} onClose={() => setError(null)} />}
      <DataTable
        columns={columns}
        data={kinds}
        pageCount={1}
        isLoading={isLoading}
        emptyText="No data"
        hidePaging
        getRowId={(r) => r.kind}
      />
      <ConfirmDialog
        open={!!pausing}
        title={`Pause ${pausing ?? ''}`}
        message={pausing ? `No new ${pausing} job will start until you resume it. Jobs running now finish; new ones wait in the queue.` : ''}
        confirmLabel="Pause"
        busy={isPending}
        onConfirm={() => pausing && run(pausing, 'pause')}
        onCancel={() => setPausing(null)}
      />
    </>
  );
}
