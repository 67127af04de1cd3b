import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Paged } from '@/lib/api-client';
import type { User } from './types';
import { usersKeys } from './keys';

/** User Accounts: the partner's users, newest first, in the server's page size. */
export const usersQueryOptions = (page: number) =>
  queryOptions({
    queryKey: usersKeys.list(page),
    queryFn: () => api.get<Paged<User>>('/partner/users', { params: { page } }),
    placeholderData: keepPreviousData,
  });

export function useUsers(page: number) {
  return useQuery(usersQueryOptions(page));
}
