// Query keys of the webhooks feature: every query and invalidation of it goes through here.
import type { WebhookScope } from './types';

export const webhooksKeys = {
  all: ['webhooks'] as const,
  scope: (scope: WebhookScope) => [...webhooksKeys.all, scope] as const,
  list: (scope: WebhookScope) => [...webhooksKeys.scope(scope), 'list'] as const,
  deliveriesAll: (scope: WebhookScope, endpointId: number) => [...webhooksKeys.scope(scope), 'deliveries', endpointId] as const,
  deliveries: (scope: WebhookScope, endpointId: number, page: number) => [...webhooksKeys.deliveriesAll(scope, endpointId), { page }] as const,
};
