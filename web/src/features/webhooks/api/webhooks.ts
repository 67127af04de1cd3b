// The webhook endpoints of one scope: list, create (the secret shown once), change, delete,
// roll the secret, send a test event; and an endpoint's delivery log with Replay.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api, type AuthScope } from '@/lib/api-client';
import { webhooksKeys } from './keys';
import type { CreatedEndpoint, Delivery, Endpoint, Page, WebhookScope } from './types';

export const DELIVERIES_PAGE_SIZE = 10;

const base = (scope: WebhookScope) => (scope === 'me' ? '/me' : '/partner');
const auth = (scope: WebhookScope): AuthScope => (scope === 'me' ? 'user' : 'partner');

export const endpointSchema = z.object({
  url: z
    .string()
    .trim()
    .min(1, 'URL is required')
    .refine((u) => /^https?:\/\/[^\s/]+/i.test(u), 'URL must be an http or https URL'),
  events: z.array(z.string()).min(1, 'Choose at least one event'),
});

export function useEndpoints(scope: WebhookScope) {
  return useQuery({ queryKey: webhooksKeys.list(scope), queryFn: () => api.get<Endpoint[]>(`${base(scope)}/webhooks`, { auth: auth(scope) }) });
}

function useEndpointMutation<I, O>(scope: WebhookScope, fn: (input: I) => Promise<O>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: webhooksKeys.scope(scope) }) });
}

export function useCreateEndpoint(scope: WebhookScope) {
  return useEndpointMutation(scope, (input: z.infer<typeof endpointSchema>) =>
    api.post<CreatedEndpoint>(`${base(scope)}/webhooks`, input, { auth: auth(scope) }),
  );
}

export function useUpdateEndpoint(scope: WebhookScope) {
  return useEndpointMutation(scope, ({ id, ...patch }: { id: number; url?: string; events?: string[]; enabled?: boolean }) =>
    api.patch<Endpoint>(`${base(scope)}/webhooks/${id}`, patch, { auth: auth(scope) }),
  );
}

export function useDeleteEndpoint(scope: WebhookScope) {
  return useEndpointMutation(scope, (id: number) => api.delete<void>(`${base(scope)}/webhooks/${id}`, { auth: auth(scope) }));
}

export function useRollSecret(scope: WebhookScope) {
  return useEndpointMutation(scope, (id: number) => api.post<{ secret: string }>(`${base(scope)}/webhooks/${id}/roll-secret`, {}, { auth: auth(scope) }));
}

export function useSendTest(scope: WebhookScope) {
  return useEndpointMutation(scope, (id: number) => api.post<{ delivery_id: number }>(`${base(scope)}/webhooks/${id}/test`, {}, { auth: auth(scope) }));
}

export function useDeliveries(scope: WebhookScope, endpointId: number, page: number) {
  return useQuery({
    queryKey: webhooksKeys.deliveries(scope, endpointId, page),
    queryFn: () =>
      api.get<Page<Delivery>>(`${base(scope)}/webhooks/${endpointId}/deliveries?page=${page}&per_page=${DELIVERIES_PAGE_SIZE}`, { auth: auth(scope) }),
    placeholderData: keepPreviousData,
    // Pending deliveries change on their own: the log follows them while it is open.
    refetchInterval: (q) => (q.state.data?.items.some((d) => d.status === 'pending') ? 3000 : false),
  });
}

export function useReplay(scope: WebhookScope) {
  return useEndpointMutation(scope, (deliveryId: number) =>
    api.post<void>(`${base(scope)}/webhook-deliveries/${deliveryId}/replay`, {}, { auth: auth(scope) }),
  );
}
