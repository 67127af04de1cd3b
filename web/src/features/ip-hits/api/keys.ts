// Query keys of the ip-hits feature: every query and invalidation of it goes through here.
export type HitsFilter = { user_id: string; ip: string; date: string };

export const ipHitsKeys = {
  all: ['ip-hits'] as const,
  page: (filter: HitsFilter, page: number) => [...ipHitsKeys.all, { ...filter, page }] as const,
  user: (userId: number, page: number) => [...ipHitsKeys.all, 'user', userId, { page }] as const,
};
