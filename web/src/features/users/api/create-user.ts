import { z } from 'zod';
import { api } from '@/lib/api-client';

// Spec part 1 §5 'Add user': all five required; names letters and spaces, phone digits.
const name = (label: string, field: string) =>
  z
    .string()
    .trim()
    .min(1, `${label} is required`)
    .regex(/^[\p{L} ]+$/u, `No special character & numbers allowed in ${field}`);

export const createUserSchema = z.object({
  first_name: name('First name', 'first name'),
  last_name: name('Last name', 'last name'),
  phone_number: z
    .string()
    .trim()
    .min(1, 'Phone number is required')
    .regex(/^\d+$/, 'No special character & alphabets allowed in phone number.'),
  email: z.string().trim().min(1, 'Email is required').email('Please enter a valid email'),
  password: z.string().min(1, 'Password is required'),
  full_access: z.boolean(),
});

export type CreateUserInput = z.infer<typeof createUserSchema>;

export const createUser = (input: CreateUserInput) => api.post<{ id: number }>('/partner/users', input);
