// Query keys of the signup-customization feature: every query and invalidation of it goes through here.
export const signupCustomizationKeys = {
  all: ['signup-customization'] as const,
  mine: () => [...signupCustomizationKeys.all, 'mine'] as const,
};
