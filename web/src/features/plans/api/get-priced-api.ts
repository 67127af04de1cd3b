import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { plansKeys } from './keys';

/** The catalogue fields of an API Pricing entry (spec part 2 §7.2: create API pricing). */
export type PricedApi = {
  id: number;
  name: string;
  category: string;
  service: string;
  method: string;
  endpoint: string;
  documentation_link: string;
  curl_code: string;
  response_code: unknown;
  param_name: string;
  header_param_name: string;
  description: string;
};

export const pricedApiQueryOptions = (apiId: number) =>
  queryOptions({
    queryKey: plansKeys.api(apiId),
    queryFn: () => api.get<PricedApi>(`/superadmin/apis/${apiId}`),
    staleTime: 60_000,
  });

export function usePricedApi(apiId: number | null) {
  return useQuery({ ...pricedApiQueryOptions(apiId ?? 0), enabled: apiId !== null });
}
