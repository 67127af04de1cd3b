import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Paged } from '@/lib/api-client';
import { userApiPath, type UserRef } from '@/lib/user-ref';
import type { TransactionKind } from './get-user-transactions';
import { transactionsKeys } from './keys';

/** One movement of an end user's wallet: a manual entry, a call's debit or a refund. */
export type LedgerRow = {
  id: number;
  created_at: string;
  type: 'credit' | 'debit';
  amount_paise: number;
  balance_after_paise: number;
  reason: 'manual' | 'api_call' | 'refund' | 'product';
  reference: string | null;
  transaction_id: number | null;
  pid: string | null;
  service: string | null;
  /** The call's state; null for a manual entry. */
  status: 'pending' | 'success' | 'failed' | 'refunded' | null;
  status_code: number | null;
};

/** User Detail, API Transactions / Product Transactions: the wallet's ledger, 50 per page. */
export const userLedgerQueryOptions = (user: UserRef, kind: TransactionKind, page: number) =>
  queryOptions({
    queryKey: transactionsKeys.ledger(user.userId, kind, page),
    queryFn: () => api.get<Paged<LedgerRow>>(`${userApiPath(user)}/wallets/${kind}/ledger`, { params: { page, per_page: 50 } }),
    placeholderData: keepPreviousData,
  });

export function useUserLedger(user: UserRef, kind: TransactionKind, page: number) {
  return useQuery(userLedgerQueryOptions(user, kind, page));
}
