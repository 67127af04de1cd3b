import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Paged } from '@/lib/api-client';
import { OPERATIONS_POLL_MS } from './get-operations';
import { queueKeys, type JobListFilter } from './keys';

/** A job in a list (JobRow in jobs/src/browse.rs). */
export type JobRow = {
  id: string;
  kind: string;
  state: string;
  attempts: number;
  max_attempts: number;
  created_at: string | null;
  /** When it is (or was) due. */
  run_at: string;
  finished_at: string | null;
  last_error: string | null;
  /** The worker process holding it (running, or fetched). */
  worker: string | null;
};

export const JOBS_PAGE_SIZE = 25;

export const jobsQueryOptions = (filter: JobListFilter) =>
  queryOptions({
    queryKey: queueKeys.list(filter),
    queryFn: () =>
      api.get<Paged<JobRow>>('/superadmin/jobs/list', {
        params: { state: filter.state, kind: filter.kind, page: filter.page, per_page: JOBS_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
    refetchInterval: OPERATIONS_POLL_MS,
  });

export function useJobs(filter: JobListFilter) {
  return useQuery(jobsQueryOptions(filter));
}
