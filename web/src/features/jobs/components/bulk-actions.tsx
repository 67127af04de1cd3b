// Retry all or Discard all of the list's current filter (a state, and a kind or every kind):
// the dialog says how many jobs it takes, and the server refuses when that count has changed
// since (the `expected` of the request), so what is confirmed is what is done.
import { useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { errorMessage } from '@/lib/api-client';
import { useBulkJobs } from '../api/bulk-jobs';
import { BULK_STATES, stateLabel, type BulkAction } from '../api/states';
import { jobsCount } from './format';

type Props = {
  state: string;
  /** Empty: every kind. */
  kind: string;
  /** How many jobs the filter holds now; undefined while it loads. */
  total: number | undefined;
  /** Where the outcome is told: how many jobs changed, or why none did. */
  onDone: (kind: 'success' | 'error', text: string) => void;
};

const allowed = (action: BulkAction, state: string) => (BULK_STATES[action] as readonly string[]).includes(state);

export function BulkActions({ state, kind, total, onDone }: Props) {
  const bulk = useBulkJobs();
  const [asking, setAsking] = useState<{ action: BulkAction; count: number } | null>(null);
  const actions = (['retry', 'discard'] as const).filter((a) => allowed(a, state));
  if (actions.length === 0) return null;

  /** "The 3 failed send_mail jobs", "The 1 failed job of every kind". */
  const which = (n: number) => {
    const noun = n === 1 ? 'job' : 'jobs';
    return `The ${n} ${stateLabel(state).toLowerCase()} ${kind ? `${kind} ${noun}` : `${noun} of every kind`}`;
  };
  const confirm = () => {
    if (!asking) return;
    const { action, count } = asking;
    bulk.mutate(
      { action, state, kind: kind || undefined, expected: count },
      {
        onSuccess: (r) => onDone('success', `${jobsCount(r.count)} ${action === 'retry' ? 'queued again' : 'discarded'}`),
        onError: (e) => onDone('error', errorMessage(e)),
        onSettled: () => setAsking(null),
      },
    );
  };

  return (
    <div className="row-actions">
        {actions.map((action) => (
          <button
            key={action}
            type="button"
            className={`btn btn-sm ${action === 'retry' ? 'btn-primary' : 'btn-secondary'}`}
            disabled={!total || bulk.isPending}
            onClick={() => setAsking({ action, count: total ?? 0 })}
          >
            {action === 'retry' ? 'Retry all' : 'Discard all'}
          </button>
        ))}
      <ConfirmDialog
        open={!!asking}
        title={asking?.action === 'discard' ? 'Discard all' : 'Retry all'}
        message={
          asking
            ? asking.action === 'retry'
              ? `${which(asking.count)} will be queued again to run now.`
              : `${which(asking.count)} will be discarded and will not run again.`
            : ''
        }
        confirmLabel={asking ? `${asking.action === 'retry' ? 'Retry' : 'Discard'} ${jobsCount(asking.count)}` : ''}
        danger={asking?.action === 'discard'}
        busy={bulk.isPending}
        onConfirm={confirm}
        onCancel={() => setAsking(null)}
      />
    </div>
  );
}
