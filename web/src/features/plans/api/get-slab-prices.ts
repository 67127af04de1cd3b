import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Paged } from '@/lib/api-client';
import type { PlanType } from './plan-types';
import { plansKeys } from './keys';

/** One API's price in a slab. */
export type SlabPrice = {
  api_id: number;
  service: string;
  name: string;
  category: string;
  pid: string;
  price_paise: number;
  default_price_paise: number;
  updated_at: string;
};

export const slabPricesQueryOptions = (plan: PlanType, page: number) =>
  queryOptions({
    queryKey: plansKeys.slabPage(plan, page),
    queryFn: () => api.get<Paged<SlabPrice>>(`/superadmin/plans/${plan}/prices`, { params: { page } }),
    placeholderData: keepPreviousData,
  });

export function useSlabPrices(plan: PlanType, page: number) {
  return useQuery(slabPricesQueryOptions(plan, page));
}
