// Query keys of the payment-settings feature: every query and invalidation of it goes through here.
export const paymentSettingsKeys = {
  all: ['payment-settings'] as const,
  mine: () => [...paymentSettingsKeys.all, 'mine'] as const,
};
