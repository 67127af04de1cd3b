import { z } from 'zod';
import { api } from '@/lib/api-client';
import type { CaptchaAnswer } from '@/lib/captcha';

export const superAdminLoginSchema = z.object({
  email: z.string().trim().min(1, 'Username is required'),
  password: z.string().min(1, 'Password is required'),
  captcha: z.string().trim().min(1, 'Captcha is required'),
});

export type SuperAdminLoginInput = z.infer<typeof superAdminLoginSchema>;

export const loginSuperAdmin = (input: SuperAdminLoginInput, captcha: CaptchaAnswer) =>
  api.post<{ token: string }>(
    '/superadmin/login',
    { email: input.email, password: input.password, captcha },
    { auth: 'none' },
  );
