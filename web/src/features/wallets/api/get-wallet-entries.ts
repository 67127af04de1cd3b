import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Paged } from '@/lib/api-client';
import type { WalletEntry } from './types';
import { walletsKeys } from './keys';

/** The signed-in partner's own wallet movements (My Transactions, Wallet transactions). */
export const myWalletEntriesQueryOptions = (page: number) =>
  queryOptions({
    queryKey: walletsKeys.myEntries(page),
    queryFn: () => api.get<Paged<WalletEntry>>('/partner/wallet-entries', { params: { page } }),
    placeholderData: keepPreviousData,
  });

export function useMyWalletEntries(page: number) {
  return useQuery(myWalletEntriesQueryOptions(page));
}
