import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Paged } from '@/lib/api-client';
import { ipAccessKeys, type IpFilter, type IpList } from './keys';
import type { IpEntry } from './types';

const PATHS: Record<IpList, string> = { whitelist: '/partner/ip-whitelist', blocked: '/partner/blocked-ips' };
const blankless = (f: IpFilter) => ({ user_id: f.user_id.trim() || undefined, ip: f.ip.trim() || undefined, date: f.date || undefined });

/** Whitelist IP or the Blocked IPs tab: newest first, 50 per page, filtered. */
export const ipEntriesQueryOptions = (list: IpList, filter: IpFilter, page: number) =>
  queryOptions({
    queryKey: ipAccessKeys.page(list, filter, page),
    queryFn: () => api.get<Paged<IpEntry>>(PATHS[list], { params: { ...blankless(filter), page, per_page: 50 } }),
    placeholderData: keepPreviousData,
  });

export function useIpEntries(list: IpList, filter: IpFilter, page: number) {
  return useQuery(ipEntriesQueryOptions(list, filter, page));
}

/** User Detail, Whitelist IP's: one user's allow-list. */
export function useUserWhitelist(userId: number, page: number) {
  return useQuery({
    queryKey: ipAccessKeys.user(userId, page),
    queryFn: () => api.get<Paged<IpEntry>>(`/partner/users/${userId}/ip-whitelist`, { params: { page, per_page: 50 } }),
    placeholderData: keepPreviousData,
  });
}
