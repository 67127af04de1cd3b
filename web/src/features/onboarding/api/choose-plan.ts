import { api } from '@/lib/api-client';

/** How the plan is billed; the plan cards' toggle offers the same two. */
export type Billing = 'monthly' | 'yearly';

/** Records the plan picked in the wizard's pricing step (no payment is taken). */
export const choosePlan = (plan: string, billing: Billing) => api.post<unknown>('/partner/plan', { plan, billing });
