// Query keys of the plans feature (slab prices, a client's plan and customised prices, the
// partner's own plan): every query and invalidation of it goes through here.
import type { PlanType } from './plan-types';

export const plansKeys = {
  all: ['plans'] as const,
  slab: (plan: PlanType) => [...plansKeys.all, 'slab', plan] as const,
  slabPage: (plan: PlanType, page: number) => [...plansKeys.slab(plan), { page }] as const,
  /** Everything about one client's plan: its plan details and its customised prices. */
  client: (clientId: number) => [...plansKeys.all, 'client', clientId] as const,
  clientPlan: (clientId: number) => [...plansKeys.client(clientId), 'plan'] as const,
  clientPrices: (clientId: number, category: string, page: number) =>
    [...plansKeys.client(clientId), 'prices', { category, page }] as const,
  /** A catalogue entry as the API Pricing modal shows it. */
  api: (apiId: number) => [...plansKeys.all, 'api', apiId] as const,
  /** The signed-in partner's own plan (My Plan). */
  mine: () => [...plansKeys.all, 'mine'] as const,
};
