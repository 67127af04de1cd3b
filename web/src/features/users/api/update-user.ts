import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { userApiPath, type UserRef } from '@/lib/user-ref';
import { storeSelectedUser } from './selected-user';
import type { User } from './types';
import { usersKeys } from './keys';

export type UserFlags = { is_active?: boolean; full_access?: boolean };

/** User Detail, Settings: Plan Status (is_active) and Access Control (full_access). */
export const updateUser = ({ userId, clientId, ...flags }: UserFlags & UserRef) =>
  api.patch<User>(userApiPath({ userId, clientId }), flags);

export function useUpdateUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: (user, vars) => {
      // The partner's stored user detail follows the change (spec part 1 §4); the super
      // admin's detail view reads the user by id from the URL instead.
      if (vars.clientId === undefined) storeSelectedUser(user);
      qc.setQueryData(usersKeys.detail(user.id), user);
      qc.invalidateQueries({ queryKey: usersKeys.lists() });
    },
  });
}
