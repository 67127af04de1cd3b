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

/** A periodic kind: its cron schedule (with seconds) and its newest job. */
export type Periodic = {
  kind: string;
  schedule: string;
  last_job_id: string | null;
  /** The last run's state (queued, running, done, failed…). */
  last_state: string | null;
  last_run_at: string | null;
  next_run_at: string | null;
};

/** A job a worker runs now; `worker` is the id of the worker process holding it. */
export type RunningJob = { id: string; kind: string; worker: string; started_at: string | null };

/** A paused kind: the workers start none of its jobs until it is resumed. */
export type Pause = { kind: string; paused_at: string; paused_by: string };

export type Operations = {
  kinds: KindStats[];
  recent_failures: JobFailure[];
  workers: WorkerProcess[];
  heartbeat_secs: number;
  periodic: Periodic[];
  running: RunningJob[];
  paused: Pause[];
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
