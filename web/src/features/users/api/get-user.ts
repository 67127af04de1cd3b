import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { userApiPath, type UserRef } from '@/lib/user-ref';
import type { User } from './types';
import { usersKeys } from './keys';

/** One user with the address lines (User Detail header). */
export const userQueryOptions = (user: UserRef) =>
  queryOptions({
    queryKey: usersKeys.detail(user.userId),
    queryFn: () => api.get<User>(userApiPath(user)),
  });

export function useUser(id: number | null, clientId?: number) {
  return useQuery({ ...userQueryOptions({ userId: id ?? 0, clientId }), enabled: id !== null });
}
