import { z } from 'zod';
import { api } from '@/lib/api-client';

export const forgotPasswordSchema = z.object({
  // The spec lower-cases the address before sending it.
  email: z.string().trim().min(1, 'Email is required').transform((v) => v.toLowerCase()),
  user_name: z.string().trim().min(1, 'Username is required'),
});

export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

export const requestPasswordReset = (input: ForgotPasswordInput) =>
  api.post<unknown>('/partner/forgot-password', input, { auth: 'none' });
