import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Paged } from '@/lib/api-client';
import { walletFilterParams, type WalletFilter } from '@/lib/wallet-filter';
import type { WalletEntry } from './types';
import { walletsKeys } from './keys';

/** The signed-in partner's own wallet movements (My Transactions, Wallet transactions). */
export const myWalletEntriesQueryOptions = (page: number, filter: WalletFilter = {}) =>
  queryOptions({
    queryKey: walletsKeys.myEntries(page, filter),
    queryFn: () => api.get<Paged<WalletEntry>>('/partner/wallet-entries', { params: { page, ...walletFilterParams(filter) } }),
    placeholderData: keepPreviousData,
  });

export function useMyWalletEntries(page: number, filter: WalletFilter = {}) {
  return useQuery(myWalletEntriesQueryOptions(page, filter));
}
