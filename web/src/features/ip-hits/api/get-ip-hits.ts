import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type Paged } from '@/lib/api-client';
import { ipHitsKeys, type HitsFilter } from './keys';

/** Calls of one user from one IP: first and last seen, count, Active or Blocked. */
export type IpHit = {
  user_id: number;
  ip: string;
  hits: number;
  first_seen: string;
  last_seen: string;
  status: 'active' | 'blocked';
  /** The blocked record Unblock deletes; null while active. */
  blocked_id: number | null;
};

const blankless = (f: HitsFilter) => ({ user_id: f.user_id.trim() || undefined, ip: f.ip.trim() || undefined, date: f.date || undefined });

/** IP Hits, All IPs: most recently seen first, paged by the server's page size. */
export function useIpHits(filter: HitsFilter, page: number) {
  return useQuery({
    queryKey: ipHitsKeys.page(filter, page),
    queryFn: () => api.get<Paged<IpHit>>('/partner/ip-hits', { params: { ...blankless(filter), page } }),
    placeholderData: keepPreviousData,
  });
}

/** User Detail, IP Details. */
export function useUserIpHits(userId: number, page: number) {
  return useQuery({
    queryKey: ipHitsKeys.user(userId, page),
    queryFn: () => api.get<Paged<IpHit>>(`/partner/users/${userId}/ip-hits`, { params: { page, per_page: 50 } }),
    placeholderData: keepPreviousData,
  });
}
