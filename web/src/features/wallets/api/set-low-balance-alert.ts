import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { rupeesToPaise } from '@/lib/money';
import type { WalletKind, WalletView } from './types';
import { walletsKeys } from './keys';

/** A threshold in rupees; empty turns the alert off. */
export const alertSchema = z.object({
  threshold: z
    .string()
    .trim()
    .refine((v) => v === '' || rupeesToPaise(v) !== null, 'Threshold must be a number of rupees, not negative')
    .transform((v) => (v === '' ? null : rupeesToPaise(v))),
});
export type AlertForm = z.input<typeof alertSchema>;

export const setLowBalanceAlert = ({ kind, threshold_paise }: { kind: WalletKind; threshold_paise: number | null }) =>
  api.put<WalletView>(`/partner/wallets/${kind}/alert`, { threshold_paise });

export function useSetLowBalanceAlert() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: setLowBalanceAlert,
    onSuccess: () => qc.invalidateQueries({ queryKey: walletsKeys.myBalances() }),
  });
}
