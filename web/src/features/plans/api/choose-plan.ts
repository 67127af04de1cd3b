import { api } from '@/lib/api-client';
import type { Billing } from './get-public-plans';

/** Records the plan picked in the wizard's pricing step (no payment is taken). */
export const choosePlan = (plan: string, billing: Billing) => api.post<unknown>('/partner/plan', { plan, billing });
