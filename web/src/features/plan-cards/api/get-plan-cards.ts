import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { planCardsKeys } from './keys';

export type PlanFeature = { text: string; highlighted: boolean };
export type PlanCard = {
  id: string;
  heading: string;
  monthly_price_paise: number;
  yearly_price_paise: number;
  colour?: string | null;
  features: PlanFeature[];
};
export type Billing = 'monthly' | 'yearly';

export const planCardsQueryOptions = () =>
  queryOptions({
    queryKey: planCardsKeys.all,
    queryFn: () => api.get<PlanCard[]>('/public/plans', { auth: 'none' }),
    staleTime: 10 * 60_000,
  });

export function usePlanCards() {
  return useQuery(planCardsQueryOptions());
}
