// Query keys of the auth feature: every query and invalidation of it goes through here.
export const authKeys = {
  all: ['auth'] as const,
  /** One built-in captcha per form (sign-in, sign-up, super-admin sign-in). */
  captcha: (form: string) => [...authKeys.all, 'captcha', form] as const,
  verifyEmail: (token: string) => [...authKeys.all, 'verify-email', token] as const,
  resetToken: (token: string) => [...authKeys.all, 'reset-token', token] as const,
  superAdminMe: () => [...authKeys.all, 'superadmin-me'] as const,
};
