import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Paged } from '@/lib/api-client';
import { plansKeys } from './keys';

/** One customised price of a client (API Pricing). */
export type CustomPrice = {
  api_id: number;
  service: string;
  name: string;
  category: string;
  pid: string;
  price_paise: number;
  /** An inactive entry is kept but does not apply. */
  status: boolean;
  /** What the client would pay without this entry. */
  plan_price_paise: number;
  created_at: string;
  updated_at: string;
};

export type CustomPriceList = Paged<CustomPrice> & { categories: string[] };

/** Client details, API Pricing: 10 per page, filtered by a lower-cased category or 'all'. */
export const clientPricesQueryOptions = (clientId: number, category: string, page: number) =>
  queryOptions({
    queryKey: plansKeys.clientPrices(clientId, category, page),
    queryFn: () =>
      api.get<CustomPriceList>(`/superadmin/clients/${clientId}/prices`, {
        params: { page, per_page: 10, category: category === 'all' ? undefined : category },
      }),
    placeholderData: keepPreviousData,
  });

export function useClientPrices(clientId: number, category: string, page: number) {
  return useQuery(clientPricesQueryOptions(clientId, category, page));
}
