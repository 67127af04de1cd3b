import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { User } from './types';
import { usersKeys } from './keys';

/** One user with the address lines (User Detail header). */
export const userQueryOptions = (id: number) =>
  queryOptions({
    queryKey: usersKeys.detail(id),
    queryFn: () => api.get<User>(`/partner/users/${id}`),
  });

export function useUser(id: number | null) {
  return useQuery({ ...userQueryOptions(id ?? 0), enabled: id !== null });
}
