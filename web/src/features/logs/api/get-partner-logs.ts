import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Paged } from '@/lib/api-client';
import { partnerFilterParams, type PartnerFilter } from '@/lib/partner-filter';
import type { ApiLog, LogKind, ProductLog } from './get-user-logs';
import { logsKeys } from './keys';

type LogOf<K extends LogKind> = K extends 'api' ? ApiLog : ProductLog;

/** User Transactions, API logs / Product logs: every user's, filtered, 50 per page. */
export const partnerLogsQueryOptions = <K extends LogKind>(kind: K, filter: PartnerFilter, page: number) =>
  queryOptions({
    queryKey: logsKeys.partnerPage(kind, filter, page),
    queryFn: () =>
      api.get<Paged<LogOf<K>>>(`/partner/${kind}-logs`, {
        // Only API calls have a status code to filter by.
        params: { ...partnerFilterParams(filter), status_code: kind === 'api' ? filter.status_code?.trim() || undefined : undefined, page, per_page: 50 },
      }),
    placeholderData: keepPreviousData,
  });

export function usePartnerLogs<K extends LogKind>(kind: K, filter: PartnerFilter, page: number) {
  return useQuery(partnerLogsQueryOptions(kind, filter, page));
}
