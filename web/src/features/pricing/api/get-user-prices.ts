import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { pricingKeys } from './keys';

/** One API as the API Price tab sees it (prices in paise). */
export type UserPrice = {
  api_id: number;
  service: string;
  name: string;
  category: string;
  pid: string;
  /** What the partner pays per call. */
  amount_paise: number;
  /** The user's own price, when the partner set one. */
  user_price_paise: number | null;
  /** What the user pays per call: their own price, else the partner's list. */
  user_amount_paise: number;
};

export const userPricesQueryOptions = (userId: number) =>
  queryOptions({
    queryKey: pricingKeys.user(userId),
    queryFn: () => api.get<{ items: UserPrice[] }>(`/partner/users/${userId}/prices`),
  });

export function useUserPrices(userId: number) {
  return useQuery(userPricesQueryOptions(userId));
}
