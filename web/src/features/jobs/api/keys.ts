// Query keys of the jobs feature (the super admin's operations view of the queue). The job
// state one page polls (`lib/jobs.ts`) has its own keys. Every mutation of the feature
// invalidates `queueKeys.all`: a retry, a pause or a bulk action changes the counts, the lists
// and the detail at once.
export type JobListFilter = { state: string; kind: string; page: number };

export const queueKeys = {
  all: ['queue'] as const,
  overview: () => [...queueKeys.all, 'overview'] as const,
  lists: () => [...queueKeys.all, 'list'] as const,
  list: (filter: JobListFilter) => [...queueKeys.lists(), filter] as const,
  detail: (id: string) => [...queueKeys.all, 'detail', id] as const,
  throughput: () => [...queueKeys.all, 'throughput'] as const,
};
