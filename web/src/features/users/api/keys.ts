// Query keys of the users feature (the partner's end users, a client's users for the super
// admin, and the partner's dashboard counts): every query and invalidation of it goes through here.
export const usersKeys = {
  all: ['users'] as const,
  lists: () => [...usersKeys.all, 'list'] as const,
  /** `q`: the search of User Accounts ('' for none). */
  list: (page: number, q = '') => [...usersKeys.lists(), { page, q }] as const,
  clientList: (clientId: number, page: number) => [...usersKeys.lists(), 'client', clientId, { page }] as const,
  detail: (id: number) => [...usersKeys.all, 'detail', id] as const,
  dashboard: () => [...usersKeys.all, 'dashboard'] as const,
};
