import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type Wallets = { api: { balance_paise: number }; product: { balance_paise: number } };

export const partnerWalletsQueryOptions = () =>
  queryOptions({
    queryKey: ['partner', 'wallets'],
    queryFn: () => api.get<Wallets>('/partner/wallets'),
  });

export function usePartnerWallets() {
  return useQuery(partnerWalletsQueryOptions());
}
