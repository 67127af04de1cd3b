import { z } from 'zod';
import { api } from '@/lib/api-client';

export const CONTACT_FAILED = 'Something went wrong, Try again.';

export const contactSchema = z.object({
  name: z.string().trim().min(1, 'Name is required'),
  email: z.string().trim().min(1, 'Email is required').email('Please enter a valid email'),
  mobile: z.string().trim().min(1, 'Phone is required').max(10, 'Phone can have at most 10 characters'),
  message: z.string().trim().optional().default(''),
});

export type ContactInput = z.infer<typeof contactSchema>;

export const sendContact = (input: ContactInput) => api.post<unknown>('/public/contact', input, { auth: 'none' });
