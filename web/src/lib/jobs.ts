// Background job state (GET /api/v1/jobs/{id}), polled until it settles.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';

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

export const jobQueryOptions = (id: string | null) =>
  queryOptions({
    queryKey: ['jobs', id],
    queryFn: () => api.get<Job>(`/jobs/${id}`),
    enabled: !!id,
    refetchInterval: (q) => (jobState(q.state.data) === 'pending' ? 1000 : false),
  });

export function useJob(id: string | null) {
  return useQuery(jobQueryOptions(id));
}
