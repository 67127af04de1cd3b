import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Paged } from '@/lib/api-client';
import type { User } from './types';
import { usersKeys } from './keys';

/** User Accounts: the partner's users, newest first, in the server's page size; `q` searches
 * name, e-mail and mobile on the server. */
export const usersQueryOptions = (page: number, q = '') =>
  queryOptions({
    queryKey: usersKeys.list(page, q),
    queryFn: () => api.get<Paged<User>>('/partner/users', { params: { page, q } }),
    placeholderData: keepPreviousData,
  });

/** Client details, Users: a client's users for the super admin, 8 per page (the server's default). */
export const clientUsersQueryOptions = (clientId: number, page: number) =>
  queryOptions({
    queryKey: usersKeys.clientList(clientId, page),
    queryFn: () => api.get<Paged<User>>(`/superadmin/clients/${clientId}/users`, { params: { page } }),
    placeholderData: keepPreviousData,
  });

/** The partner's users, or with `clientId` that client's users (super admin). */
export function useUsers(page: number, clientId?: number, q = '') {
  const mine = useQuery({ ...usersQueryOptions(page, q), enabled: clientId === undefined });
  const client = useQuery({ ...clientUsersQueryOptions(clientId ?? 0, page), enabled: clientId !== undefined });
  return clientId === undefined ? mine : client;
}
