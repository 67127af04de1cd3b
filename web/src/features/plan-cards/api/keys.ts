// Query keys of the plan-cards feature (the public pricing cards).
export const planCardsKeys = {
  all: ['plan-cards'] as const,
};
