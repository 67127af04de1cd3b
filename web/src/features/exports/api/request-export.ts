import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api, type AuthScope } from '@/lib/api-client';
import { exportsKeys } from './keys';
import type { ExportKind } from './types';

/** A calendar day as YYYY-MM-DD, `days` from today (the browser's today). */
export function isoDay(days = 0, from = new Date()): string {
  const d = new Date(from.getFullYear(), from.getMonth(), from.getDate() + days);
  const mm = String(d.getMonth() + 1).padStart(2, '0');
  const dd = String(d.getDate()).padStart(2, '0');
  return `${d.getFullYear()}-${mm}-${dd}`;
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

export type ExportRequest = { kind: ExportKind; user_id?: number; from: string; to: string };
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
