import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type Paged } from '@/lib/api-client';
import { portalKeys, type HistoryFilter } from './keys';

/** One call as its user sees it: what the user paid and its balance after. */
export type OwnTransaction = {
  id: number;
  created_at: string;
  service: string;
  pid: string;
  status_code: number | null;
  status: 'pending' | 'success' | 'failed' | 'refunded' | string;
  amount_type: 'credit' | 'debit' | string;
  amount_paise: number;
  /** What one paid in the end: 0 once the call was refunded. */
  net_paise: number;
  /** One's balance after the call (after its refund, for a refunded call). */
  balance_paise: number | null;
};

export type OwnLog = {
  id: number;
  created_at: string;
  service: string;
  pid: string;
  vid: string;
  status_code: number;
  amount_paise: number;
  transaction_id: number | null;
  /** Why the gateway refused the call (nothing charged); null for a charged call. */
  reason?: string | null;
};

export const HISTORY_PAGE_SIZE = 50;

const params = (f: HistoryFilter, page: number) => ({ from: f.from, to: f.to, page, per_page: HISTORY_PAGE_SIZE });
// The logs also take a Status Code.
const logParams = (f: HistoryFilter, page: number) => ({ ...params(f, page), status_code: f.status_code });

export function useOwnTransactions(filter: HistoryFilter, page: number) {
  return useQuery({
    queryKey: portalKeys.transactions(filter, page),
    queryFn: () => api.get<Paged<OwnTransaction>>('/me/api-transactions', { auth: 'user', params: params(filter, page) }),
    placeholderData: keepPreviousData,
  });
}

export function useOwnLogs(filter: HistoryFilter, page: number) {
  return useQuery({
    queryKey: portalKeys.logs(filter, page),
    queryFn: () => api.get<Paged<OwnLog>>('/me/api-logs', { auth: 'user', params: logParams(filter, page) }),
    placeholderData: keepPreviousData,
  });
}
