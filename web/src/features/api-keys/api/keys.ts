// Query keys of the api-keys feature (a partner's end users' gateway keys, served by
// api/src/routes/api_keys.rs): every query and invalidation of it goes through here.
export const apiKeysKeys = {
  all: ['api-keys'] as const,
  user: (userId: number) => [...apiKeysKeys.all, 'user', userId] as const,
};
