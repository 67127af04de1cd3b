import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { rupeeField } from '@/lib/money';
import type { PlanType } from './plan-types';
import { plansKeys } from './keys';

/** Add New Service (Plans) with the five messages of spec part 2, §5. */
export const addServiceSchema = z.object({
  plan_type: z.string().min(1, 'Plan Type is required'),
  service: z.string().trim().min(1, 'Service Name is required'),
  price: rupeeField({ required: 'Price is required', number: 'Price must be a number', negative: 'Price cannot be negative' }),
});
export type AddServiceForm = z.input<typeof addServiceSchema>;

export type AddServiceInput = { plan_type: string; service: string; price_paise: number };

export const addService = (input: AddServiceInput) =>
  api.post<{ plan: PlanType; service: string; price_paise: number }>('/superadmin/plans/prices', input);

export function useAddService() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: addService,
    onSuccess: (r) => qc.invalidateQueries({ queryKey: plansKeys.slab(r.plan) }),
  });
}
