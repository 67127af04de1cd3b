import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Paged } from '@/lib/api-client';
import { ownerPath, type WalletEntry, type WalletOwner } from './types';
import { walletsKeys } from './keys';

/** A client's wallet transactions (super admin, client details) or an end user's, 50 per page. */
export const ownerWalletEntriesQueryOptions = (owner: WalletOwner, page: number) =>
  queryOptions({
    queryKey: walletsKeys.ownerEntriesPage(owner, page),
    queryFn: () => api.get<Paged<WalletEntry>>(`${ownerPath(owner)}/wallet-entries`, { params: { page } }),
    placeholderData: keepPreviousData,
  });

export function useOwnerWalletEntries(owner: WalletOwner, page: number) {
  return useQuery(ownerWalletEntriesQueryOptions(owner, page));
}
