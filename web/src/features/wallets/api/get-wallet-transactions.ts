import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Paged } from '@/lib/api-client';
import type { WalletEntry } from './types';
import { walletsKeys } from './keys';

/** Every partner wallet's movements (super admin, Wallet Transactions), with the partner's id. */
export const allWalletTransactionsQueryOptions = (page: number) =>
  queryOptions({
    queryKey: walletsKeys.allEntriesPage(page),
    queryFn: () => api.get<Paged<WalletEntry>>('/superadmin/wallet-transactions', { params: { page } }),
    placeholderData: keepPreviousData,
  });

export function useAllWalletTransactions(page: number) {
  return useQuery(allWalletTransactionsQueryOptions(page));
}
