import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Paged } from '@/lib/api-client';
import { trubankKeys } from './keys';
import type { BankStatementRequest } from './types';

export const PAGE_SIZE = 50;

/** The queue, newest first, 50 a page. */
export const bankStatementsQueryOptions = (page: number) =>
  queryOptions({
    queryKey: trubankKeys.page(page),
    queryFn: () => api.get<Paged<BankStatementRequest>>('/partner/bank-statements', { params: { page, per_page: PAGE_SIZE } }),
    placeholderData: keepPreviousData,
  });

export function useBankStatements(page: number) {
  return useQuery(bankStatementsQueryOptions(page));
}
