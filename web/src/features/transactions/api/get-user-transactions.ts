import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Paged } from '@/lib/api-client';
import { transactionsKeys } from './keys';

export type TransactionKind = 'api' | 'product';

/** One row of an end user's API or product transactions. */
export type Transaction = {
  id: number;
  created_at: string;
  user_id: number;
  email: string;
  service: string;
  pid: string;
  status_code: number | null;
  status: string;
  amount_type: string;
  /** What the partner paid. */
  amount_paise: number;
  /** What the end user paid: the amount of the user's own ledger. */
  user_amount_paise: number;
  /** What the partner paid in the end: 0 once the call was refunded. */
  net_paise: number;
  /** What the end user paid in the end: 0 once the call was refunded. */
  user_net_paise: number;
  /** The user's balance after the call (after its refund, for a refunded call). */
  remaining_paise: number | null;
  /** The partner's balance after the call or purchase (after its refund, for a refunded call). */
  partner_remaining_paise: number | null;
};

/** User Detail, API Transactions / Product Transactions: 50 per page, newest first. */
export const userTransactionsQueryOptions = (userId: number, kind: TransactionKind, page: number) =>
  queryOptions({
    queryKey: transactionsKeys.userPage(userId, kind, page),
    queryFn: () => api.get<Paged<Transaction>>(`/partner/users/${userId}/${kind}-transactions`, { params: { page, per_page: 50 } }),
    placeholderData: keepPreviousData,
  });

export function useUserTransactions(userId: number, kind: TransactionKind, page: number) {
  return useQuery(userTransactionsQueryOptions(userId, kind, page));
}
