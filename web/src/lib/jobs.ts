// Background job state (GET /api/v1/jobs/{id}), polled until it settles.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type AuthScope } from './api-client';

export type Job = {
  id: string;
  kind: string;
  status: string;
  attempts: number;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
};

const DONE = ['done', 'completed', 'complete', 'succeeded', 'success'];
const FAILED = ['failed', 'killed', 'dead', 'error', 'aborted'];

export function jobState(job: Pick<Job, 'status'> | undefined): 'pending' | 'done' | 'failed' {
  const s = job?.status?.toLowerCase() ?? '';
  if (DONE.includes(s)) return 'done';
  if (FAILED.includes(s)) return 'failed';
  return 'pending';
}

export const jobsKeys = {
  all: ['jobs'] as const,
  detail: (id: string | null) => [...jobsKeys.all, id] as const,
};

/** `auth` says whose session polls: the partner's by default, the super admin's on its console. */
export const jobQueryOptions = (id: string | null, auth?: AuthScope) =>
  queryOptions({
    queryKey: jobsKeys.detail(id),
    queryFn: () => api.get<Job>(`/jobs/${id}`, { auth }),
    enabled: !!id,
    refetchInterval: (q) => (jobState(q.state.data) === 'pending' ? 1000 : false),
  });

export function useJob(id: string | null, auth?: AuthScope) {
  return useQuery(jobQueryOptions(id, auth));
}
