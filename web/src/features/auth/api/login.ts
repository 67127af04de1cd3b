import { z } from 'zod';
import { api } from '@/lib/api-client';
import type { CaptchaAnswer } from '@/lib/captcha';

export const loginSchema = z.object({
  email: z.string().trim().min(1, 'Email is required'),
  password: z.string().min(1, 'Password is required'),
  terms: z.literal(true, { errorMap: () => ({ message: 'Please accept the terms and conditions' }) }),
});

export type LoginInput = z.infer<typeof loginSchema>;

export type LoginResponse = {
  token: string;
  partner: { id: string; user_name: string; subdomain: string | null; onboarding_step: number };
};

export const loginPartner = (input: LoginInput, captcha: CaptchaAnswer) =>
  api.post<LoginResponse>(
    '/partner/login',
    { email: input.email, password: input.password, captcha },
    { auth: 'none' },
  );
