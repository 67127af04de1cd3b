import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { userApiPath, type UserRef } from '@/lib/user-ref';
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

export const userPricesQueryOptions = (user: UserRef) =>
  queryOptions({
    queryKey: pricingKeys.user(user.userId),
    queryFn: () => api.get<{ items: UserPrice[] }>(`${userApiPath(user)}/prices`),
  });

export function useUserPrices(user: UserRef) {
  return useQuery(userPricesQueryOptions(user));
}
