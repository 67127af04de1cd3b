// Add User Manually (spec part 1): five fields and access control (Limited by default);
// validation messages stay 10 s; success opens 'Account created successfully'.
import { useEffect, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { PasswordInput } from '@/components/ui/password-input';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useZodForm, type FieldErrors } from '@/lib/form';
import { createUser, createUserSchema, type CreateUserInput } from '../api/create-user';
import { usersKeys } from '../api/keys';

export const VALIDATION_MS = 10_000;

const empty: CreateUserInput = { first_name: '', last_name: '', phone_number: '', email: '', password: '', full_access: false };

export function AddUserForm() {
  const form = useZodForm<typeof createUserSchema, CreateUserInput>(createUserSchema, empty);
  const msg = useTimedMessage();
  const [created, setCreated] = useState(false);
  const queryClient = useQueryClient();
  const mutation = useMutation({ mutationFn: createUser });

  const { errors, setErrors } = form;
  const hasErrors = Object.values(errors).some(Boolean);
  useEffect(() => {
    if (!hasErrors) return;
    const t = setTimeout(() => setErrors({}), VALIDATION_MS);
    return () => clearTimeout(t);
  }, [errors, hasErrors, setErrors]);

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
        <div className="form-row">
          <Field label="First name" htmlFor="au-first" error={errors.first_name}>
            <input id="au-first" type="text" autoComplete="off" {...form.text('first_name')} />
          </Field>
          <Field label="Last name" htmlFor="au-last" error={errors.last_name}>
            <input id="au-last" type="text" autoComplete="off" {...form.text('last_name')} />
          </Field>
        </div>
        <div className="form-row">
          <Field label="Phone number" htmlFor="au-phone" error={errors.phone_number}>
            <input id="au-phone" type="tel" inputMode="numeric" autoComplete="off" {...form.text('phone_number')} />
          </Field>
          <Field label="E-mail" htmlFor="au-email" error={errors.email}>
            <input id="au-email" type="email" autoComplete="off" {...form.text('email')} />
          </Field>
        </div>
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
