// The partner's selling prices (My Plan): its default margin over its cost and its own price
// per API for all its users; a user's own price (API Price) still wins.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { pricingKeys } from './keys';
import type { PriceChange } from './save-user-prices';

export type SellingPrice = {
  api_id: number;
  service: string;
  name: string;
  category: string;
  pid: string;
  /** What the partner pays per call. */
  amount_paise: number;
  /** The partner's own selling price for this API, when it set one. */
  selling_price_paise: number | null;
  /** What a user without a price of its own pays: the selling price, else cost plus margin. */
  sells_at_paise: number;
};

export type SellingPrices = { default_margin_percent: number; default_margin_bps: number; items: SellingPrice[] };

export const sellingPricesQueryOptions = () =>
  queryOptions({
    queryKey: pricingKeys.selling(),
    queryFn: () => api.get<SellingPrices>('/partner/selling-prices'),
  });

export function useSellingPrices() {
  return useQuery(sellingPricesQueryOptions());
}

/** A margin as typed: a number of percent, 0 to 1000, at most two decimals. */
export function marginError(text: string): string | null {
  const s = text.trim();
  if (s === '') return 'Margin is required';
  if (!/^\d+(\.\d*)?$|^\.\d+$/.test(s)) return /^-/.test(s) ? 'Margin cannot be negative' : 'Margin must be a number';
  if (/\.\d{3,}$/.test(s)) return 'Margin can have at most two decimals';
  if (Number(s) > 1000) return 'Margin cannot be above 1000%';
  return null;
}

/** `onChanged` refreshes what other features show from these prices (the route passes it). */
export function useSaveMargin(onChanged?: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (percent: number) => api.put<SellingPrices>('/partner/selling-prices/margin', { default_margin_percent: percent }),
    onSuccess: (data) => {
      qc.setQueryData(pricingKeys.selling(), data);
      qc.invalidateQueries({ queryKey: pricingKeys.all });
      onChanged?.();
    },
  });
}

export function useSaveSellingPrices(onChanged?: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (prices: (PriceChange | { service: string; price_paise: null })[]) =>
      api.put<{ changed: number }>('/partner/selling-prices', { prices }),
    onSuccess: () => {
      qc.invalidateQueries({ queryKey: pricingKeys.all });
      onChanged?.();
    },
  });
}
