import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { portalKeys } from './keys';

export type TryResult = {
  status_code: number;
  /** The sample answer (JSON), or the gateway's error. */
  body: unknown;
  transaction_id: number;
  charged_paise: number;
  /** The API wallet after the call. */
  balance_paise: number;
  verification_id: string;
};

/** Every required field filled (blank counts as missing, as the gateway counts it). */
export function tryItSchema(fields: string[]) {
  return z.object(Object.fromEntries(fields.map((f) => [f, z.string().trim().min(1, `${f} is required`)])));
}

export function useTryIt() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ service, input }: { service: string; input: Record<string, string> }) =>
      api.post<TryResult>(`/me/try/${encodeURIComponent(service)}`, input, { auth: 'user' }),
    // The call moved money: the wallets, the usage and the history change.
    onSettled: () => {
      qc.invalidateQueries({ queryKey: portalKeys.me() });
      qc.invalidateQueries({ queryKey: portalKeys.usage() });
      qc.invalidateQueries({ queryKey: portalKeys.transactionsAll() });
      qc.invalidateQueries({ queryKey: portalKeys.logsAll() });
    },
  });
}
