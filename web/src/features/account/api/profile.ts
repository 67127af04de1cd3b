import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { accountKeys } from './keys';

/** The partner's own profile; the user name is shown, not changed. */
export type Profile = { first_name: string; last_name: string; email: string; phone_number: string; user_name: string };
export type ProfileInput = Omit<Profile, 'user_name'>;

export const profileQueryOptions = () => queryOptions({ queryKey: accountKeys.profile(), queryFn: () => api.get<Profile>('/partner/profile') });

export function useProfile() {
  return useQuery(profileQueryOptions());
}

// Sign-up's rules and messages (the server checks the same).
export const profileSchema = z.object({
  first_name: z.string().trim().min(1, 'First name is required').max(100, 'First name is too long'),
  last_name: z.string().trim().min(1, 'Last name is required').max(100, 'Last name is too long'),
  email: z.string().trim().min(1, 'Email is required').email('Please enter a valid email'),
  phone_number: z
    .string()
    .trim()
    .min(1, 'Phone number is required')
    .regex(/^(?=(?:\D*\d){6})[0-9+ -]{6,20}$/, 'Please enter a valid phone number'),
});

/** Saves the profile; `onSaved` lets the app refresh what else shows the partner (its header). */
export function useSaveProfile(onSaved?: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (p: ProfileInput) => api.put<Profile>('/partner/profile', p),
    onSuccess: (p) => {
      qc.setQueryData(accountKeys.profile(), p);
      onSaved?.();
    },
  });
}
