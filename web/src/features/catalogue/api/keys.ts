// Query keys of the catalogue feature: every query and invalidation of it goes through here.
export const catalogueKeys = {
  all: ['catalogue'] as const,
  apis: (page: number, q = '') => [...catalogueKeys.all, 'apis', { page, q }] as const,
  testApis: (page: number) => [...catalogueKeys.all, 'test-apis', { page }] as const,
  /** Any signed-in role may read the summary; each session caches its own. */
  summary: (auth: 'partner' | 'superadmin') => [...catalogueKeys.all, 'summary', auth] as const,
};
