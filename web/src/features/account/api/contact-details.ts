import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api, ApiError } from '@/lib/api-client';
import { accountKeys } from './keys';

export type ContactDetails = { phone_number: string; email: string; address: string };

/** Not saved yet answers 404: that is an empty form, not an error (spec part 2, §8). */
export const contactQueryOptions = () =>
  queryOptions({
    queryKey: accountKeys.contact(),
    queryFn: async () => {
      try {
        return await api.get<ContactDetails>('/partner/contact-details');
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) return null;
        throw e;
      }
    },
  });
export function useContactDetails() {
  return useQuery(contactQueryOptions());
}

export const contactSchema = z.object({
  phone_number: z.string().trim().min(1, 'Phone number is required').regex(/^\+?\d{7,15}$/, 'Phone number must be 7 to 15 digits'),
  email: z.string().trim().min(1, 'Email is required').email('Enter a valid email address'),
  address: z.string().trim().min(1, 'Address is required').max(500, 'Address must be at most 500 characters'),
});

export function useSaveContactDetails() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (c: ContactDetails) => api.put<ContactDetails>('/partner/contact-details', c),
    onSuccess: (c) => qc.setQueryData(accountKeys.contact(), c),
  });
}
