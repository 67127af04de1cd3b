// Recent failures, newest first, each with Retry and Discard.
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DataTable } from '@/components/ui/data-table';
import { useToast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { useJobAction } from '../api/act-on-job';
import type { JobFailure } from '../api/get-operations';
import { attemptsOf } from '../api/states';
import { JobLink } from './job-link';

export function FailuresTable({ failures, isLoading }: { failures: JobFailure[]; isLoading: boolean }) {
  const action = useJobAction();
  const { mutate, isPending } = action;
  const toast = useToast();
  const [discarding, setDiscarding] = useState<JobFailure | null>(null);
  const [error, setError] = useState<string | null>(null);

  const discard = (f: JobFailure) =>
    action.mutate(
      { id: f.id, action: 'discard' },
      {
        onSuccess: () => toast.show('Job discarded'),
        onError: (e) => setError(errorMessage(e)),
        onSettled: () => setDiscarding(null),
      },
    );

  // Stable between polls: TanStack renders each cell function as a component, and a new one
  // every few seconds would remount the buttons and lose a keyboard user's focus.
  const columns = useMemo<ColumnDef<JobFailure>[]>(() => {
    const retry = (f: JobFailure) => {
      setError(null);
      mutate(
        { id: f.id, action: 'retry' },
        { onSuccess: () => toast.show('Job queued again'), onError: (e) => setError(errorMessage(e)) },
      );
    };
    return [
      { id: 'at', header: 'Failed at', cell: ({ row }) => formatDate(row.original.at) },
      { id: 'kind', header: 'Job kind', cell: ({ row }) => <code>{row.original.kind}</code> },
      { id: 'id', header: 'Job id', cell: ({ row }) => <JobLink id={row.original.id} /> },
      {
        id: 'attempts',
        header: 'Attempts',
        cell: ({ row }) => attemptsOf(row.original.attempts, row.original.max_attempts),
      },
      {
        id: 'status',
        header: 'Status',
        cell: ({ row }) =>
          row.original.status === 'retrying' ? (
            <span title={row.original.next_run_at ? `Next attempt ${formatDate(row.original.next_run_at)}` : undefined}>
              Retrying
            </span>
          ) : (
            <span className="text-danger">Failed</span>
          ),
      },
      { id: 'error', header: 'Last error', cell: ({ row }) => <span className="job-error">{row.original.last_error}</span> },
      {
        id: 'actions',
        header: '',
        cell: ({ row }) => (
          <div className="row-actions">
            <button
              type="button"
              className="btn btn-primary btn-sm"
              disabled={isPending}
              onClick={() => retry(row.original)}
              aria-label={`Retry job ${row.original.id}`}
            >
              Retry
            </button>
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              disabled={isPending}
              onClick={() => setDiscarding(row.original)}
              aria-label={`Discard job ${row.original.id}`}
            >
              Discard
            </button>
          </div>
        ),
      },
    ];
  }, [isPending, mutate, toast]);

  return (
    <>
      {error && <Alert message={{ kind: 'error', text: error }} onClose={() => setError(null)} />}
      <DataTable
        columns={columns}
        data={failures}
        pageCount={1}
        isLoading={isLoading}
        emptyText="No failed jobs"
        hidePaging
        getRowId={(r) => r.id}
      />
      <ConfirmDialog
        open={!!discarding}
        title="Discard job"
        message={discarding ? `The ${discarding.kind} job ${discarding.id} will not run again.` : ''}
        confirmLabel="Discard"
        danger
        busy={action.isPending}
        onConfirm={() => discarding && discard(discarding)}
        onCancel={() => setDiscarding(null)}
      />
    </>
  );
}
