// Query keys of the pricing feature (an end user's prices, the partner's selling prices):
// every query and invalidation of it goes through here.
export const pricingKeys = {
  all: ['pricing'] as const,
  user: (userId: number) => [...pricingKeys.all, 'user', userId] as const,
  selling: () => [...pricingKeys.all, 'selling'] as const,
};
