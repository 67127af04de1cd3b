// Query keys of the logs feature: every query and invalidation of it goes through here.
export const logsKeys = {
  all: ['logs'] as const,
  user: (userId: number) => [...logsKeys.all, 'user', userId] as const,
  userPage: (userId: number, kind: 'api' | 'product', page: number) => [...logsKeys.user(userId), kind, { page }] as const,
};
