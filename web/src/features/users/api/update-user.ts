import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { storeSelectedUser } from './selected-user';
import type { User } from './types';
import { usersKeys } from './keys';

export type UserFlags = { is_active?: boolean; full_access?: boolean };

/** User Detail, Settings: Plan Status (is_active) and Access Control (full_access). */
export const updateUser = ({ userId, ...flags }: UserFlags & { userId: number }) =>
  api.patch<User>(`/partner/users/${userId}`, flags);

export function useUpdateUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: (user) => {
      // The stored user detail follows the change (spec part 1 §4).
      storeSelectedUser(user);
      qc.setQueryData(usersKeys.detail(user.id), user);
      qc.invalidateQueries({ queryKey: usersKeys.lists() });
    },
  });
}
