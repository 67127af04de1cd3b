import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { mailKeys } from './keys';

export type OutboxMail = { id: string; to: string; from: string; subject: string; at: string | null; text: string };

export const mailQueryOptions = (id: string) =>
  queryOptions({
    queryKey: mailKeys.detail(id),
    queryFn: () => api.get<OutboxMail>(`/superadmin/mail/${encodeURIComponent(id)}`),
  });

export function useMail(id: string | null) {
  return useQuery({ ...mailQueryOptions(id ?? ''), enabled: !!id });
}
