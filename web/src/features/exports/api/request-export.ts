import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api, type AuthScope } from '@/lib/api-client';
import { istDay } from '@/lib/format';
import { exportsKeys } from './keys';
import type { ExportKind } from './types';

/** An IST calendar day as YYYY-MM-DD, `days` from today: the server checks the range in IST. */
export function isoDay(days = 0, from = new Date()): string {
  return istDay(days, from);
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The export date range (spec part 1 §5): From at most today, To at most tomorrow, and From
 * not after To. The server checks the same rules in IST.
 */
export const exportRangeSchema = (today = isoDay(0), tomorrow = isoDay(1)) =>
  z
    .object({
      from: z.string().regex(DAY, 'From date is required').refine((v) => v <= today, 'From date cannot be later than today'),
      to: z.string().regex(DAY, 'To date is required').refine((v) => v <= tomorrow, 'To date cannot be later than tomorrow'),
    })
    .superRefine((v, ctx) => {
      if (v.from > v.to) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['from'], message: 'From date cannot be after To date' });
    });

/** Whose side of the money a transactions export shows: the users' or the partner's own. */
export type MoneySide = 'user' | 'partner';

export type ExportRequest = {
  kind: ExportKind;
  user_id?: number;
  from: string;
  to: string;
  side?: MoneySide;
  /** One user's wallet ledger (User Detail) rather than its calls; the server's default with a user_id. */
  ledger?: boolean;
  email?: string;
  pid?: string;
  services?: string;
  /** API logs: the Status Code filter. */
  status_code?: number;
  /** Wallet entries: the Wallet and Type filters. */
  wallet?: 'api' | 'product';
  type?: 'credit' | 'debit';
};
export type ExportQueued = { export_id: number; job_id: string };

export function requestExport(body: ExportRequest, auth?: AuthScope) {
  return api.post<ExportQueued>('/exports', body, { auth });
}

export function useRequestExport(auth?: AuthScope) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ExportRequest) => requestExport(body, auth),
    onSuccess: () => qc.invalidateQueries({ queryKey: exportsKeys.lists() }),
  });
}
