import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queueKeys } from './keys';

export type KindStats = {
  kind: string;
  queued: number;
  running: number;
  retrying: number;
  failed: number;
  discarded: number;
  done_last_hour: number;
  done_last_minute: number;
  oldest_queued_secs: number;
};

export type JobFailure = {
  id: string;
  kind: string;
  status: 'retrying' | 'failed';
  attempts: number;
  max_attempts: number;
  last_error: string;
  at: string | null;
  next_run_at: string | null;
};

export type WorkerProcess = {
  id: string;
  host: string;
  pid: number;
  concurrency: number;
  started_at: string;
  last_seen_at: string;
  stopped_at: string | null;
  // The kinds it takes.
  queues: string[];
  fetch_batch: number;
  fetched_at: string | null;
  // stalled: it heartbeats but its fetcher has not reached the queue for two beats.
  status: 'running' | 'stalled' | 'stopped' | 'missing';
};

export type Operations = {
  kinds: KindStats[];
  recent_failures: JobFailure[];
  workers: WorkerProcess[];
  heartbeat_secs: number;
};

/** How often the page refreshes: the counts move by the second while work flows. */
export const OPERATIONS_POLL_MS = 3000;

export const operationsQueryOptions = () =>
  queryOptions({
    queryKey: queueKeys.overview(),
    queryFn: () => api.get<Operations>('/superadmin/jobs'),
    refetchInterval: OPERATIONS_POLL_MS,
  });

export function useOperations() {
  return useQuery(operationsQueryOptions());
}
