import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { ipAccessKeys, type IpList } from './keys';
import type { IpEntry } from './types';

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** Whitelist IP's Add new (spec part 2, §5): user id digits only, a dotted IPv4, comments. */
export const whitelistSchema = z.object({
  user_id: z.string().trim().min(1, 'User ID is required').regex(/^\d+$/, 'User ID contains only numeric values.'),
  ip: z.string().trim().min(1, 'IP is required').regex(IPV4, 'Please enter a valid IP address!'),
  comments: z.string().trim().min(1, 'Comments are required').max(500, 'Comments must be at most 500 characters'),
});
export type WhitelistForm = z.input<typeof whitelistSchema>;

/** Block's modal: the hit's user and IP are read-only; comments are required. */
export const blockSchema = z.object({
  comments: z.string().trim().min(1, 'Comments are required').max(500, 'Comments must be at most 500 characters'),
});

export type IpEntryInput = { list: IpList; user_id: number; ip: string; comments: string };

export function useAddIpEntry() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ list, ...body }: IpEntryInput) => api.post<IpEntry>(list === 'whitelist' ? '/partner/ip-whitelist' : '/partner/blocked-ips', body),
    onSuccess: (_, v) => qc.invalidateQueries({ queryKey: ipAccessKeys.list(v.list) }),
  });
}

/** Unblock (by the blocked record's id) or remove an allow-list entry. */
export function useRemoveIpEntry() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ list, id }: { list: IpList; id: number }) => api.delete<void>(list === 'whitelist' ? `/partner/ip-whitelist/${id}` : `/partner/blocked-ips/${id}`),
    onSuccess: (_, v) => qc.invalidateQueries({ queryKey: ipAccessKeys.list(v.list) }),
  });
}
