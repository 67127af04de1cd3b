import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { PlanType } from './plan-types';
import { plansKeys } from './keys';

export type MyPlanItem = { api_id: number; service: string; category: string; name: string; pid: string; price_paise: number; sells_at_paise: number };

/** The partner's plan, read-only; `plan: null` means 'No plan selected yet'. */
export type MyPlan = { plan: PlanType | null; customised?: boolean; updated_at: string | null; items: MyPlanItem[] };

export const myPlanQueryOptions = () =>
  queryOptions({
    queryKey: plansKeys.mine(),
    queryFn: () => api.get<MyPlan>('/partner/plan'),
  });

export function useMyPlan() {
  return useQuery(myPlanQueryOptions());
}
