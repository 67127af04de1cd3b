// Query keys of the jobs feature (the super admin's operations view of the queue). The job
// state one page polls (`lib/jobs.ts`) has its own keys.
export const queueKeys = {
  all: ['queue'] as const,
  overview: () => [...queueKeys.all, 'overview'] as const,
};
