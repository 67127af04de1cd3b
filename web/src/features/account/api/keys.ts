// Query keys of the account feature: every query and invalidation of it goes through here.
export const accountKeys = {
  all: ['account'] as const,
  contact: () => [...accountKeys.all, 'contact'] as const,
  profile: () => [...accountKeys.all, 'profile'] as const,
};
