// The user's own account: profile, password, self sign-up and the password-reset link. The
// schemas follow the server's rules (domain::users, domain::portal::account), so most mistakes
// are caught before a request; the server's field errors are shown all the same.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import type { CaptchaAnswer } from '@/lib/captcha';
import { portalKeys } from './keys';
import type { Me, UserSession } from './types';

export const PASSWORD_MISMATCH = 'New Password and Confirm Password didnot match!';
export const PASSWORD_GUIDANCE =
  'Password must be at least 8 characters long and contain at least two of the following: upper case, lower case, numbers, symbols.';

const name = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `${label} is required`)
    .max(100, 'Name is too long')
    .regex(/^[A-Za-z ]+$/, `No special character & numbers allowed in ${label.toLowerCase()}`);

const phone = z
  .string()
  .trim()
  .min(1, 'Phone number is required')
  .regex(/^\d+$/, 'No special character & alphabets allowed in phone number.')
  .refine((p) => p.length >= 6 && p.length <= 15, 'Phone number must have 6 to 15 digits');

const addressLine = z.string().trim().max(200, 'Address line must be at most 200 characters');

/** At least 8 characters and two of upper case, lower case, digits and symbols (the server's rule). */
export function strongEnough(p: string): boolean {
  const kinds = [/[A-Z]/, /[a-z]/, /\d/, /[^A-Za-z\d]/].filter((r) => r.test(p)).length;
  return p.length >= 8 && kinds >= 2;
}

const newPassword = z.string().min(1, 'New password is required').refine(strongEnough, PASSWORD_GUIDANCE);

export const profileSchema = z.object({
  first_name: name('First name'),
  last_name: name('Last name'),
  phone_number: phone,
  address_line1: addressLine,
  address_line2: addressLine,
});
export type ProfileInput = z.infer<typeof profileSchema>;

export function useUpdateProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileInput) => api.patch<Me>('/me/profile', input, { auth: 'user' }),
    onSuccess: (me) => qc.setQueryData(portalKeys.me(), me),
  });
}

export const passwordSchema = z
  .object({
    current_password: z.string().min(1, 'Current password is required'),
    new_password: newPassword,
    confirm_new_password: z.string().min(1, 'Confirm password is required'),
  })
  .refine((v) => v.new_password === v.confirm_new_password, { message: PASSWORD_MISMATCH, path: ['confirm_new_password'] });
export type PasswordInput = z.infer<typeof passwordSchema>;

export function useChangePassword() {
  return useMutation({
    mutationFn: (input: PasswordInput) => api.post<{ message: string }>('/me/password', input, { auth: 'user' }),
  });
}

export const signUpSchema = (termsRequired: boolean) =>
  z
    .object({
      first_name: name('First name'),
      last_name: name('Last name'),
      email: z.string().trim().min(1, 'Email is required').email('Please enter a valid email'),
      phone_number: phone,
      password: z.string().min(1, 'Password is required').refine(strongEnough, PASSWORD_GUIDANCE),
      confirm_password: z.string().min(1, 'Confirm password is required'),
      accept_terms: z.boolean(),
    })
    .refine((v) => v.password === v.confirm_password, { message: PASSWORD_MISMATCH, path: ['confirm_password'] })
    .refine((v) => !termsRequired || v.accept_terms, { message: 'Please accept the terms and conditions', path: ['accept_terms'] });
export type SignUpInput = z.infer<ReturnType<typeof signUpSchema>>;

/** 202 with the same message whether or not the address was known: the link comes by mail. */
export const signUp = (input: SignUpInput, captcha: CaptchaAnswer) =>
  api.post<{ message: string }>('/me/signup', { ...input, captcha }, { auth: 'none' });

export const verifyEmailSchema = z.object({ password: z.string().min(1, 'Password is required') });
export type VerifyEmailInput = z.infer<typeof verifyEmailSchema>;

/** The mailed sign-up link with the sign-up's password: the first session. */
export const verifyEmail = (token: string, input: VerifyEmailInput) =>
  api.post<UserSession>('/me/verify-email', { token, ...input }, { auth: 'none' });

export const forgotPasswordSchema = z.object({
  email: z.string().trim().min(1, 'Email is required').email('Please enter a valid email'),
});
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

export const forgotPassword = (input: ForgotPasswordInput) =>
  api.post<{ message: string }>('/me/forgot-password', input, { auth: 'none' });

/** Checks the mailed link without using it up; 400 'Session expired ! Please try again'. */
export function useResetLink(token: string) {
  return useQuery({
    queryKey: portalKeys.resetToken(token),
    queryFn: () => api.post<{ first_name: string }>('/me/reset-password/verify', { token }, { auth: 'none' }),
    retry: false,
    staleTime: Infinity,
  });
}

export const resetPasswordSchema = z
  .object({ new_password: newPassword, confirm_new_password: z.string().min(1, 'Confirm password is required') })
  .refine((v) => v.new_password === v.confirm_new_password, { message: PASSWORD_MISMATCH, path: ['confirm_new_password'] });
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

export const resetPassword = (token: string, input: ResetPasswordInput) =>
  api.post<{ message: string }>('/me/reset-password', { token, ...input }, { auth: 'none' });
