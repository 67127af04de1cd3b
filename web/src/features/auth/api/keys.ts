// Query keys of the auth feature: every query and invalidation of it goes through here.
export const authKeys = {
  all: ['auth'] as const,
  verifyEmail: (token: string) => [...authKeys.all, 'verify-email', token] as const,
  resetToken: (token: string) => [...authKeys.all, 'reset-token', token] as const,
  superAdminMe: () => [...authKeys.all, 'superadmin-me'] as const,
};
