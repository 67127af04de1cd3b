import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { userApiPath, type UserRef } from '@/lib/user-ref';
import { createUserSchema } from './create-user';
import { readSelectedUser, storeSelectedUser } from './selected-user';
import type { User } from './types';
import { usersKeys } from './keys';

export type UserFlags = { is_active?: boolean; full_access?: boolean };

/** The Edit form: the fields of Add User Manually but the password and access, under its rules. */
export const editUserSchema = createUserSchema.pick({ first_name: true, last_name: true, phone_number: true, email: true });
export type UserEdit = { first_name: string; last_name: string; phone_number: string; email: string };

/** User Detail, Settings (Plan Status, Access Control), Activate/Deactivate on User Accounts,
 * and Edit (the partner only): one PATCH of the fields given. */
export const updateUser = ({ userId, clientId, ...change }: (UserFlags | UserEdit) & UserRef) =>
  api.patch<User>(userApiPath({ userId, clientId }), change);

export function useUpdateUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: (user, vars) => {
      // The partner's stored user detail follows the change (spec part 1 §4), unless it is
      // another user's (a change made on User Accounts); the super admin's detail view reads
      // the user by id from the URL instead.
      const stored = readSelectedUser();
      if (vars.clientId === undefined && (!stored || stored.id === user.id)) storeSelectedUser(user);
      qc.setQueryData(usersKeys.detail(user.id), user);
      qc.invalidateQueries({ queryKey: usersKeys.lists() });
    },
  });
}
