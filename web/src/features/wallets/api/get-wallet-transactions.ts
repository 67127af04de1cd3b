import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Paged } from '@/lib/api-client';
import { walletFilterParams, type WalletFilter } from '@/lib/wallet-filter';
import type { WalletEntry } from './types';
import { walletsKeys } from './keys';

/** Every partner wallet's movements (super admin, Wallet Transactions), with the partner's id. */
export const allWalletTransactionsQueryOptions = (page: number, filter: WalletFilter = {}) =>
  queryOptions({
    queryKey: walletsKeys.allEntriesPage(page, filter),
    queryFn: () => api.get<Paged<WalletEntry>>('/superadmin/wallet-transactions', { params: { page, ...walletFilterParams(filter) } }),
    placeholderData: keepPreviousData,
  });

export function useAllWalletTransactions(page: number, filter: WalletFilter = {}) {
  return useQuery(allWalletTransactionsQueryOptions(page, filter));
}
