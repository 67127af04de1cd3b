// Query keys of the settings feature: every query and invalidation of it goes through here.
export const settingsKeys = {
  all: ['settings'] as const,
  mine: () => [...settingsKeys.all, 'mine'] as const,
  client: (id: number) => [...settingsKeys.all, 'client', id] as const,
};
