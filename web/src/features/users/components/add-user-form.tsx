// Add User Manually (spec part 1): five fields and access control (Limited by default);
// validation messages stay 10 s; success opens 'Account created successfully'.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { PasswordInput } from '@/components/ui/password-input';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useZodForm, type FieldErrors } from '@/lib/form';
import { createUser, createUserSchema, type CreateUserInput } from '../api/create-user';
import { usersKeys } from '../api/keys';
import { UserIdentityFields, useMessagesFor10s } from './user-fields';


const empty: CreateUserInput = { first_name: '', last_name: '', phone_number: '', email: '', password: '', full_access: false };

export function AddUserForm() {
  const form = useZodForm<typeof createUserSchema, CreateUserInput>(createUserSchema, empty);
  const msg = useTimedMessage();
  const [created, setCreated] = useState(false);
  const queryClient = useQueryClient();
  const mutation = useMutation({ mutationFn: createUser });

  const { errors, setErrors } = form;
  useMessagesFor10s(errors, setErrors);

  const submit = form.handleSubmit((data) =>
    mutation.mutate(data, {
      onSuccess: () => {
        form.reset();
        setCreated(true);
        // The lists and the dashboard's user count.
        queryClient.invalidateQueries({ queryKey: usersKeys.all });
      },
      onError: (err) => {
        if (err instanceof ApiError && err.fields) setErrors(err.fields as FieldErrors<CreateUserInput>);
        msg.error(errorMessage(err));
      },
    }),
  );

  return (
    <>
      <form className="form card" onSubmit={submit} noValidate aria-label="Add user">
        <Alert message={msg.message} onClose={msg.clear} />
        <UserIdentityFields idPrefix="au" text={form.text} errors={errors} />
        <div className="form-row">
          <Field label="Password" htmlFor="au-password" error={errors.password}>
            <PasswordInput id="au-password" autoComplete="new-password" {...form.text('password')} />
          </Field>
          <div className="field" role="radiogroup" aria-label="Access control">
            <span className="field-label">Access control</span>
            <div className="radio-group">
              <label>
                <input type="radio" name="au-access" checked={!form.values.full_access} onChange={() => form.setValue('full_access', false)} /> Limited
              </label>
              <label>
                <input type="radio" name="au-access" checked={form.values.full_access} onChange={() => form.setValue('full_access', true)} /> Full
              </label>
            </div>
          </div>
        </div>
        <button type="submit" className="btn btn-primary btn-block" disabled={mutation.isPending}>
          {mutation.isPending ? 'Wait...' : 'Create Account'}
        </button>
      </form>
      <Modal
        open={created}
        title="Account created successfully"
        onClose={() => setCreated(false)}
        size="sm"
        footer={
          <button type="button" className="btn btn-primary" onClick={() => setCreated(false)}>
            OK
          </button>
        }
      >
        <p>Mail has been sent to user for confirmation</p>
      </Modal>
    </>
  );
}
