import { z } from 'zod';
import { api } from '@/lib/api-client';
import type { CaptchaAnswer } from '@/lib/captcha';
import type { UserSession } from './types';

export const signInSchema = z.object({
  email: z.string().trim().min(1, 'Email is required').email('Enter a valid email address'),
  password: z.string().min(1, 'Password is required'),
});

export type SignInInput = z.infer<typeof signInSchema>;

/** The site is the page's Host: the server resolves the partner from it. */
export const signIn = (input: SignInInput, captcha: CaptchaAnswer) =>
  api.post<UserSession>('/me/login', { ...input, captcha }, { auth: 'none' });
