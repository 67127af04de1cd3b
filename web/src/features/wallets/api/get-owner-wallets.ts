import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { ownerPath, type Balances, type WalletOwner } from './types';

/** An end user's (partner) or a client's (super admin) two wallets: the Credits tabs. */
export const ownerWalletsQueryOptions = (owner: WalletOwner) =>
  queryOptions({
    queryKey: ['wallets', owner.scope, owner.id],
    queryFn: () => api.get<Balances>(`${ownerPath(owner)}/wallets`),
  });

export function useOwnerWallets(owner: WalletOwner) {
  return useQuery(ownerWalletsQueryOptions(owner));
}
