import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Balances } from './types';
import { walletsKeys } from './keys';

export type { Balances as Wallets } from './types';

/** The signed-in partner's own two wallets (top bar). */
export const partnerWalletsQueryOptions = () =>
  queryOptions({
    queryKey: walletsKeys.myBalances(),
    queryFn: () => api.get<Balances>('/partner/wallets'),
  });

export function usePartnerWallets() {
  return useQuery(partnerWalletsQueryOptions());
}
