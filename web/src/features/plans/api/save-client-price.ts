import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { rupeeField } from '@/lib/money';
import { plansKeys } from './keys';

export const clientPriceSchema = z.object({
  service: z.string().trim().min(1, 'Service Name is required'),
  price: rupeeField({ required: 'Price is required', number: 'Price must be a number', negative: 'Price cannot be negative' }),
  status: z.boolean(),
});
export type ClientPriceForm = z.input<typeof clientPriceSchema>;

/** Adds or edits one customised price (one row: applied at once, 200). */
export const saveClientPrice = ({ clientId, service, price_paise, status }: { clientId: number; service: string; price_paise: number; status: boolean }) =>
  api.put<{ changed: number }>(`/superadmin/clients/${clientId}/prices`, { prices: [{ service, price_paise, status }] });

export function useSaveClientPrice(clientId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: saveClientPrice,
    onSuccess: () => qc.invalidateQueries({ queryKey: plansKeys.client(clientId) }),
  });
}
