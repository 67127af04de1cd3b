// Query keys of the earnings feature: every query and invalidation of it goes through here.
export const earningsKeys = {
  all: ['earnings'] as const,
  period: (from: string, to: string) => [...earningsKeys.all, from, to] as const,
};
