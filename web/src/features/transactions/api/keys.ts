// Query keys of the transactions feature: every query and invalidation of it goes through here.
export const transactionsKeys = {
  all: ['transactions'] as const,
  user: (userId: number) => [...transactionsKeys.all, 'user', userId] as const,
  userPage: (userId: number, kind: 'api' | 'product', page: number) =>
    [...transactionsKeys.user(userId), kind, { page }] as const,
};
