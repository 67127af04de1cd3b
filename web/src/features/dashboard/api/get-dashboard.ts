import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type DashboardCounts = { users: number; transactions: number };

export const dashboardQueryOptions = () =>
  queryOptions({
    queryKey: ['partner', 'dashboard'],
    queryFn: () => api.get<DashboardCounts>('/partner/dashboard'),
  });

export function useDashboard() {
  return useQuery(dashboardQueryOptions());
}
