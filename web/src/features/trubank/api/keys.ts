// Query keys of the trubank feature (the bank-statement verification queue): every query and
// invalidation of it goes through here.
export const trubankKeys = {
  all: ['trubank'] as const,
  list: () => [...trubankKeys.all, 'list'] as const,
  page: (page: number) => [...trubankKeys.list(), { page }] as const,
};
