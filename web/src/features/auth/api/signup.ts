import { z } from 'zod';
import { api } from '@/lib/api-client';
import type { CaptchaAnswer } from '@/lib/captcha';

// Spec part 1 §5: all six are required; format and length rules are not shown.
export const signupSchema = z.object({
  first_name: z.string().trim().min(1, 'First name is required'),
  last_name: z.string().trim().min(1, 'Last name is required'),
  phone_number: z.string().trim().min(1, 'Phone number is required'),
  email: z.string().trim().min(1, 'Email is required'),
  user_name: z.string().trim().min(1, 'User name is required'),
  password: z.string().min(1, 'Password is required'),
});

export type SignupInput = z.infer<typeof signupSchema>;

export const signupPartner = (input: SignupInput, captcha: CaptchaAnswer) =>
  api.post<{ partner_id: string }>('/partner/signup', { ...input, captcha }, { auth: 'none' });
