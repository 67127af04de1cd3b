import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queueKeys } from './keys';

/** The attempts of one kind that ended in one minute (Minute in domain/src/infra/job_attempts.rs). */
export type ThroughputMinute = { minute: string; kind: string; done: number; failed: number };

/** Oldest first; minutes without attempts are left out. */
export type Throughput = { minutes: ThroughputMinute[] };

/** A chart of minutes needs no refresh every three seconds. */
export const THROUGHPUT_POLL_MS = 15_000;

export const throughputQueryOptions = () =>
  queryOptions({
    queryKey: queueKeys.throughput(),
    queryFn: () => api.get<Throughput>('/superadmin/jobs/throughput'),
    refetchInterval: THROUGHPUT_POLL_MS,
  });

export function useThroughput() {
  return useQuery(throughputQueryOptions());
}
