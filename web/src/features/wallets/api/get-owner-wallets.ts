import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { ownerPath, type Balances, type WalletOwner } from './types';
import { walletsKeys } from './keys';

/** An end user's (partner) or a client's (super admin) two wallets: the Credits tabs. */
export const ownerWalletsQueryOptions = (owner: WalletOwner) =>
  queryOptions({
    queryKey: walletsKeys.ownerBalances(owner),
    queryFn: () => api.get<Balances>(`${ownerPath(owner)}/wallets`),
  });

export function useOwnerWallets(owner: WalletOwner) {
  return useQuery(ownerWalletsQueryOptions(owner));
}
