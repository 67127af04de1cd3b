// Query keys of the portal feature: every query and invalidation of it goes through here.
export type HistoryFilter = { from?: string; to?: string; status_code?: string };

export const portalKeys = {
  all: ['portal'] as const,
  site: () => [...portalKeys.all, 'site'] as const,
  /** Everything about the signed-in user: dropped at sign-in and sign-out. */
  session: () => [...portalKeys.all, 'session'] as const,
  me: () => [...portalKeys.session(), 'me'] as const,
  usage: () => [...portalKeys.session(), 'usage'] as const,
  apis: () => [...portalKeys.session(), 'apis'] as const,
  apiKeys: () => [...portalKeys.session(), 'api-keys'] as const,
  transactionsAll: () => [...portalKeys.session(), 'transactions'] as const,
  transactions: (filter: HistoryFilter, page: number) => [...portalKeys.transactionsAll(), filter, { page }] as const,
  logsAll: () => [...portalKeys.session(), 'logs'] as const,
  logs: (filter: HistoryFilter, page: number) => [...portalKeys.logsAll(), filter, { page }] as const,
  topUp: () => [...portalKeys.session(), 'top-up'] as const,
  batchesAll: () => [...portalKeys.session(), 'batches'] as const,
  batches: (page: number) => [...portalKeys.batchesAll(), { page }] as const,
  batch: (id: number) => [...portalKeys.batchesAll(), 'one', id] as const,
  resetToken: (token: string) => [...portalKeys.all, 'reset-token', token] as const,
};
