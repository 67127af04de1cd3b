import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { uploadFile } from '@/lib/uploads';
import { trubankKeys } from './keys';
import type { BankStatementRequest } from './types';

export const STATEMENT_MAX_BYTES = 10 * 1024 * 1024;

const isPdf = (f: File) => f.type === 'application/pdf' && /\.pdf$/i.test(f.name);

/** Change Status (spec part 2, §2.6): a required status, an optional PDF and comment. */
export const changeStatusSchema = z.object({
  status: z.enum(['verified', 'not_verified'], { message: 'Status is required' }),
  file: z
    .instanceof(File)
    .nullable()
    .refine((f) => !f || isPdf(f), 'Please select a PDF file')
    .refine((f) => !f || f.size <= STATEMENT_MAX_BYTES, 'File size is too large. Please select a file smaller than 10MB.'),
  comment: z.string().trim().max(1000, 'Comment must be at most 1000 characters'),
});
export type ChangeStatusForm = { status: '' | 'verified' | 'not_verified'; file: File | null; comment: string };
export type ChangeStatusInput = z.output<typeof changeStatusSchema> & { id: number };

export function useChangeStatus() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, status, file, comment }: ChangeStatusInput) => {
      const file_key = file ? (await uploadFile(file, 'statement')).key : undefined;
      return api.put<BankStatementRequest>(`/partner/bank-statements/${id}/status`, { status, comment: comment || undefined, file_key });
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: trubankKeys.list() }),
  });
}
