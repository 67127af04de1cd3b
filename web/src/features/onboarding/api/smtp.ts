import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { onboardingKeys } from './keys';

export const smtpSchema = z.object({
  host: z.string().trim().min(1, 'Host is required'),
  port: z
    .string()
    .trim()
    .min(1, 'Port is required')
    .regex(/^\d+$/, 'Port must be a number')
    .transform(Number)
    .pipe(z.number().int().min(1, 'Port must be a number').max(65535, 'Port must be a number')),
  user: z.string().trim().min(1, 'User email is required'),
  password: z.string().min(1, 'Password is required'),
  from: z.string().trim().min(1, 'From is required'),
  company_name: z.string().trim().min(1, 'Company name is required'),
  secure: z.boolean(),
  active: z.boolean(),
});

export type SmtpForm = z.input<typeof smtpSchema>;
export type SmtpInput = z.output<typeof smtpSchema>;

export const updateSmtp = (input: SmtpInput) => api.put<unknown>('/partner/smtp', input);
export const skipSmtp = () => api.post<unknown>('/partner/smtp/skip');

/** A mail the partner's own server did not take (the last one, until a save or a mail that goes through). */
export type SmtpFailure = {
  at: string;
  /** The server's answer or the connection error, the password masked. */
  error: string;
  /** Which mail: user_password_reset, user_signup, account_created, low_balance, smtp_test, … */
  mail: string;
  /** Whether the platform's mail server sent it instead (mails an end user's account needs). */
  fallback: boolean;
};

/** The saved settings; the password only ever comes back masked. */
export type SmtpView = {
  configured: boolean;
  host: string;
  port: number | null;
  user: string;
  password: string;
  from: string;
  company_name: string;
  secure: boolean;
  active: boolean;
  last_failure?: SmtpFailure | null;
};

export const smtpQueryOptions = () => queryOptions({ queryKey: onboardingKeys.smtp(), queryFn: () => api.get<SmtpView>('/partner/smtp') });
export function useSmtp() {
  return useQuery(smtpQueryOptions());
}

/** My Account: the same rules, but a blank password keeps the one stored. */
export const smtpEditSchema = smtpSchema.extend({ password: z.string() });

/** 'Send test mail': a job that mails the partner through the saved settings. */
export const testSmtp = () => api.post<{ job_id: string }>('/partner/smtp/test');
