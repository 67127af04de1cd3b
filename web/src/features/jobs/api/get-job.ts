import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { JobRow } from './get-jobs';
import { OPERATIONS_POLL_MS } from './get-operations';
import { queueKeys } from './keys';

/** One attempt (Attempt in domain/src/infra/job_attempts.rs). */
export type JobAttempt = {
  attempt: number;
  started_at: string;
  finished_at: string;
  duration_ms: number;
  /** done | retrying | failed | lost */
  outcome: string;
  error: string | null;
  worker: string;
};

/** One job with its arguments and every attempt, first first. */
export type JobDetail = JobRow & {
  /** The payload as queued: ids and small values. */
  args: unknown;
  /** When a queued, scheduled or retrying job runs next. */
  next_run_at: string | null;
  history: JobAttempt[];
};

export const jobQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queueKeys.detail(id),
    queryFn: () => api.get<JobDetail>(`/superadmin/jobs/${encodeURIComponent(id)}`),
    // An open job moves on by itself (queued, running, done): the panel follows it.
    refetchInterval: OPERATIONS_POLL_MS,
  });

export function useJob(id: string | null) {
  return useQuery({ ...jobQueryOptions(id ?? ''), enabled: !!id });
}
