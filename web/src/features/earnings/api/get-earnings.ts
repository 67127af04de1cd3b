import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { earningsKeys } from './keys';

/** Successful calls and what they earned: revenue (paid by the users), cost (paid by the partner), margin. */
export type Figures = { calls: number; revenue_paise: number; cost_paise: number; margin_paise: number };
export type EarningsDay = Figures & { day: string };
export type ApiEarnings = Figures & { service: string; name: string };
export type Earnings = Figures & { from: string; to: string; days: EarningsDay[]; apis: ApiEarnings[] };

/** Empty `from`/`to` let the server pick its default period (the last 30 UTC days). */
export const earningsQueryOptions = (from: string, to: string) =>
  queryOptions({
    queryKey: earningsKeys.period(from, to),
    queryFn: () => {
      const q = new URLSearchParams();
      if (from) q.set('from', from);
      if (to) q.set('to', to);
      const s = q.toString();
      return api.get<Earnings>(`/partner/earnings${s ? `?${s}` : ''}`);
    },
    placeholderData: keepPreviousData,
  });

export function useEarnings(from: string, to: string) {
  return useQuery(earningsQueryOptions(from, to));
}
