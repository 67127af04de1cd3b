import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { rupeeField } from '@/lib/money';
import { paymentSettingsKeys } from './keys';

/** The card provider; the key id and secret only ever arrive masked. */
export type CardProvider = {
  configured: boolean;
  key_id: string;
  key_secret: string;
  name: string;
  description: string;
  logo_key: string | null;
  logo_url: string | null;
  minimum_api_amount_paise: number | null;
  minimum_product_amount_paise: number | null;
  theme_color: string;
  currency: string;
};
export type QrPayment = { qr_key: string | null; image_url: string | null; description: string; default_description: string };
export type PaymentSettings = { card: CardProvider; qr: QrPayment };

export const paymentSettingsQueryOptions = () =>
  queryOptions({ queryKey: paymentSettingsKeys.mine(), queryFn: () => api.get<PaymentSettings>('/partner/payment-settings') });
export function usePaymentSettings() {
  return useQuery(paymentSettingsQueryOptions());
}

const amount = (label: string) =>
  rupeeField({ required: `${label} is required`, number: `${label} must be a number`, negative: `${label} cannot be negative` });

/** The modal's form: every field required (spec part 2, §5); the keys only while none are saved. */
export const cardSchema = (configured: boolean) =>
  z.object({
    key_id: configured ? z.string().trim() : z.string().trim().min(1, 'Key id is required'),
    key_secret: configured ? z.string().trim() : z.string().trim().min(1, 'Key secret is required'),
    name: z.string().trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters'),
    description: z.string().trim().min(1, 'Description is required').max(500, 'Description must be at most 500 characters'),
    logo_key: z.string({ required_error: 'Please select a file' }).min(1, 'Please select a file'),
    minimum_api_amount: amount('Minimum API amount'),
    minimum_product_amount: amount('Minimum product amount'),
    theme_color: z.string().trim().regex(/^#[0-9a-fA-F]{6}$/, 'Theme colour must be a hex colour like #6091E2'),
    currency: z.literal('INR', { errorMap: () => ({ message: 'Currency must be INR' }) }),
  });
export type CardValues = z.input<ReturnType<typeof cardSchema>>;
export type CardPayload = {
  key_id: string;
  key_secret: string;
  name: string;
  description: string;
  logo_key: string;
  minimum_api_amount_paise: number;
  minimum_product_amount_paise: number;
  theme_color: string;
  currency: string;
};

export function useSaveCard() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (c: CardPayload) => api.put<PaymentSettings>('/partner/payment-settings/card', c),
    onSuccess: (s) => qc.setQueryData(paymentSettingsKeys.mine(), s),
  });
}

export const qrSchema = z.object({
  qr_key: z.string({ required_error: 'Please select a file' }).min(1, 'Please select a file'),
  description: z.string().trim().max(1000, 'Description must be at most 1,000 characters'),
});
export type QrValues = z.input<typeof qrSchema>;

export function useSaveQr() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (q: z.infer<typeof qrSchema>) => api.put<PaymentSettings>('/partner/payment-settings/qr', q),
    onSuccess: (s) => qc.setQueryData(paymentSettingsKeys.mine(), s),
  });
}
