import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { signupCustomizationKeys } from './keys';

/** My Account, Signup Customization: the end users' sign-in and sign-up switches and texts. */
export type SignupCustomization = {
  forgot_password: boolean;
  terms: boolean;
  create_account: boolean;
  login_with_google: boolean;
  /** Sanitised by the server before it is stored. */
  terms_html: string;
  copyright: string;
};

export const signupCustomizationQueryOptions = () =>
  queryOptions({ queryKey: signupCustomizationKeys.mine(), queryFn: () => api.get<SignupCustomization>('/partner/signup-customization') });
export function useSignupCustomization() {
  return useQuery(signupCustomizationQueryOptions());
}

export const signupCustomizationSchema = z.object({
  forgot_password: z.boolean(),
  terms: z.boolean(),
  create_account: z.boolean(),
  login_with_google: z.boolean(),
  terms_html: z.string().max(100_000, 'Terms must be at most 100,000 characters'),
  copyright: z.string().trim().max(200, 'Copyright must be at most 200 characters'),
});

export function useApplySignupCustomization() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (s: SignupCustomization) => api.put<SignupCustomization>('/partner/signup-customization', s),
    onSuccess: (s) => qc.setQueryData(signupCustomizationKeys.mine(), s),
  });
}
