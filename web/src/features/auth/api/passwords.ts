import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { authKeys } from './keys';

export const PASSWORD_MISMATCH = 'New Password and Confirm Password didnot match!';
export const SESSION_EXPIRED = 'Session expired ! Please try again';
/** Guidance only: the rule is not enforced in the browser (spec §5). */
export const PASSWORD_GUIDANCE =
  'Password must be at least 8 characters long and contain at least two of the following: upper case, lower case, numbers, symbols.';

const newPasswordFields = {
  new_password: z.string().min(1, 'New password is required'),
  confirm_new_password: z.string().min(1, 'Confirm password is required'),
};

const matching = <T extends { new_password: string; confirm_new_password: string }>(v: T) =>
  v.new_password === v.confirm_new_password;

export const setNewPasswordSchema = z
  .object(newPasswordFields)
  .refine(matching, { message: PASSWORD_MISMATCH, path: ['confirm_new_password'] });

export const changePasswordSchema = z
  .object({ current_password: z.string().min(1, 'Current password is required'), ...newPasswordFields })
  .refine(matching, { message: PASSWORD_MISMATCH, path: ['confirm_new_password'] });

export type SetNewPasswordInput = z.infer<typeof setNewPasswordSchema>;
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

/** The token from the mailed /reset-password-admin/:token link, kept for /set-new-password/. */
export const RESET_TOKEN_KEY = 'reset_password_token';

/** The user id and user name the mailed link belongs to (kept with the token). */
export type ResetTokenInfo = { user_id: number; user_name: string };
export const RESET_USER_KEY = 'reset_password_user';

/** Checks the mailed token without using it up; 400 when it is unknown, expired or used. */
export const verifyResetToken = (token: string) =>
  api.post<ResetTokenInfo>('/partner/reset-password/verify', { token }, { auth: 'none' });

/** Runs once per token (a query, so React's double effects do not post twice). */
export function useVerifyResetToken(token: string) {
  return useQuery({
    queryKey: authKeys.resetToken(token),
    queryFn: () => verifyResetToken(token),
    retry: false,
    staleTime: Infinity,
  });
}

export const resetPassword = (token: string, input: SetNewPasswordInput) =>
  api.post<unknown>('/partner/reset-password', { token, ...input }, { auth: 'none' });

export const changePassword = (input: ChangePasswordInput) =>
  api.post<unknown>('/partner/change-password', {
    current_password: input.current_password,
    new_password: input.new_password,
  });
