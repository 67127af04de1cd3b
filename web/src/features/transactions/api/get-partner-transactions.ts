import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Paged } from '@/lib/api-client';
import { partnerFilterParams, type PartnerFilter } from '@/lib/partner-filter';
import type { Transaction, TransactionKind } from './get-user-transactions';
import { transactionsKeys } from './keys';

/** Every user's API calls or purchases of the partner, filtered, 50 per page, newest first. */
export const partnerTransactionsQueryOptions = (kind: TransactionKind, filter: PartnerFilter, page: number) =>
  queryOptions({
    queryKey: transactionsKeys.partnerList(`${kind}-transactions`, filter, page),
    queryFn: () =>
      api.get<Paged<Transaction>>(`/partner/${kind}-transactions`, { params: { ...partnerFilterParams(filter), page, per_page: 50 } }),
    placeholderData: keepPreviousData,
  });

export function usePartnerTransactions(kind: TransactionKind, filter: PartnerFilter, page: number) {
  return useQuery(partnerTransactionsQueryOptions(kind, filter, page));
}
