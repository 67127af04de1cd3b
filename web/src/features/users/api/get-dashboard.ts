import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { usersKeys } from './keys';

export type DashboardCounts = { users: number; transactions: number };

export const dashboardQueryOptions = () =>
  queryOptions({
    queryKey: usersKeys.dashboard(),
    queryFn: () => api.get<DashboardCounts>('/partner/dashboard'),
  });

export function useDashboard() {
  return useQuery(dashboardQueryOptions());
}
