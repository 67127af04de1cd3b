import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Paged } from '@/lib/api-client';
import type { ApiLog } from './get-user-logs';
import { logsKeys } from './keys';

/** The Api Logs filters of client details, as the URL holds them. */
export const CLIENT_LOG_FILTERS = ['from', 'to', 'user_id', 'pid', 'vid', 'vpid', 'service'] as const;
export type ClientLogFilters = Record<(typeof CLIENT_LOG_FILTERS)[number], string>;

export const CLIENT_LOGS_PAGE_SIZE = 50;

export const clientLogsQueryOptions = (clientId: number, filters: ClientLogFilters, page: number) =>
  queryOptions({
    queryKey: logsKeys.client(clientId, { ...filters, page }),
    queryFn: () =>
      api.get<Paged<ApiLog>>(`/superadmin/clients/${clientId}/api-logs`, {
        params: { ...filters, page, per_page: CLIENT_LOGS_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
  });

export function useClientLogs(clientId: number, filters: ClientLogFilters, page: number) {
  return useQuery(clientLogsQueryOptions(clientId, filters, page));
}
