// Query keys of the logs feature: every query and invalidation of it goes through here.
import type { PartnerFilter } from '@/lib/partner-filter';

export const logsKeys = {
  all: ['logs'] as const,
  user: (userId: number) => [...logsKeys.all, 'user', userId] as const,
  userPage: (userId: number, kind: 'api' | 'product', page: number) => [...logsKeys.user(userId), kind, { page }] as const,
  client: (clientId: number, filters: Record<string, string | number>) => [...logsKeys.all, 'client', clientId, filters] as const,
  partnerPage: (kind: 'api' | 'product', filter: PartnerFilter, page: number) => [...logsKeys.all, 'partner', kind, { ...filter, page }] as const,
};
