import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Paged } from '@/lib/api-client';
import { userApiPath, type UserRef } from '@/lib/user-ref';
import { logsKeys } from './keys';

export type ApiLog = {
  id: number;
  created_at: string;
  user_id: number;
  service: string;
  pid: string;
  vid: string;
  vpid: string;
  status_code: number;
  amount_paise: number;
};

export type ProductLog = {
  id: number;
  created_at: string;
  user_id: number;
  description: string;
  status_code: number;
  amount_paise: number;
};

export type LogKind = 'api' | 'product';
type LogOf<K extends LogKind> = K extends 'api' ? ApiLog : ProductLog;

/** User Detail, API Logs / Product Logs: 50 per page, newest first. */
export const userLogsQueryOptions = <K extends LogKind>(user: UserRef, kind: K, page: number) =>
  queryOptions({
    queryKey: logsKeys.userPage(user.userId, kind, page),
    queryFn: () => api.get<Paged<LogOf<K>>>(`${userApiPath(user)}/${kind}-logs`, { params: { page, per_page: 50 } }),
    placeholderData: keepPreviousData,
  });

export function useUserLogs<K extends LogKind>(user: UserRef, kind: K, page: number) {
  return useQuery(userLogsQueryOptions(user, kind, page));
}
