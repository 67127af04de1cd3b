import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { policiesKeys, type PolicyKind } from './keys';

export type { PolicyKind };

/** A policy in plain paragraphs; `partner` when the partner of this site wrote it. */
export type Policy = { title: string; paragraphs: string[]; source: 'partner' | 'platform' };

/** The policy of the site this page is served on (the server reads the Host). */
export const policyQueryOptions = (kind: PolicyKind) =>
  queryOptions({
    queryKey: policiesKeys.one(kind),
    queryFn: () => api.get<Policy>(`/public/policies/${kind}`, { auth: 'none' }),
    staleTime: 5 * 60_000,
  });

export function usePolicy(kind: PolicyKind) {
  return useQuery(policyQueryOptions(kind));
}
