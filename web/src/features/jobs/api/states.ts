// The job states as the API names them (jobs/src/browse.rs) and as the page shows them, and
// which of them each bulk action takes.

export const JOB_STATES = ['queued', 'scheduled', 'running', 'retrying', 'failed', 'discarded', 'done'] as const;
export type JobState = (typeof JOB_STATES)[number];

export const STATE_LABELS: Record<JobState, string> = {
  queued: 'Queued',
  scheduled: 'Scheduled',
  running: 'Running',
  retrying: 'Retrying',
  failed: 'Failed',
  discarded: 'Discarded',
  done: 'Done',
};

/** 'Done' for 'done'; an unknown state as it came. */
export function stateLabel(state: string | null | undefined): string {
  if (!state) return '_';
  return STATE_LABELS[state as JobState] ?? state;
}

export type BulkAction = 'retry' | 'discard';

/** The states each bulk action applies to (BulkRequest in api/src/routes/jobs.rs). */
export const BULK_STATES: Record<BulkAction, readonly JobState[]> = {
  retry: ['retrying', 'failed', 'discarded'],
  discard: ['queued', 'scheduled', 'retrying', 'failed'],
};

/** What a single job's buttons may do in its state. */
export const canRetry = (state: string) => state === 'retrying' || state === 'failed';
export const canDiscard = canRetry;
export const canRevive = (state: string) => state === 'discarded';

/**
 * "n of max". A job that lost its worker on its last attempt, or was retried past its
 * allowance, can have counted more attempts than its maximum: the maximum shown is never below
 * the count, so it never reads "2 of 1".
 */
export function attemptsOf(n: number, max: number): string {
  return `${n} of ${Math.max(n, max)}`;
}
