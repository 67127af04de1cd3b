// Query keys of the onboarding feature (the partner's profile, status checks and wizard): every
// query and invalidation of it goes through here.
export const onboardingKeys = {
  all: ['onboarding'] as const,
  me: () => [...onboardingKeys.all, 'me'] as const,
  status: () => [...onboardingKeys.all, 'status'] as const,
  subdomain: (name: string) => [...onboardingKeys.all, 'subdomain', name] as const,
  smtp: () => [...onboardingKeys.all, 'smtp'] as const,
};
