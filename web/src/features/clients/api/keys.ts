// Query keys of the clients feature (partners as the super admin sees them): every query and
// invalidation of it goes through here, and other features' changes reach it through
// `clientsKeys` from the app layer.
export const clientsKeys = {
  all: ['clients'] as const,
  lists: () => [...clientsKeys.all, 'list'] as const,
  list: (filters: { page: number } & Record<string, string | number>) => [...clientsKeys.lists(), filters] as const,
  detail: (id: number) => [...clientsKeys.all, 'detail', id] as const,
  dashboard: () => [...clientsKeys.all, 'dashboard'] as const,
};
