import { z } from 'zod';
import { api } from '@/lib/api-client';

export const FILE_REQUIRED = 'Please select a file';
export const LOGO_TOO_LARGE = 'File size is too large. Please select a file smaller than 1MB.';
export const FAVICON_TOO_LARGE = 'File size is too large. Please select a file smaller than 10KB.';

const hex = (name: string) => z.string().trim().regex(/^#[0-9a-fA-F]{6}$/, `Enter the ${name} colour as a hex code like #6091E2`);

export const brandingSchema = z.object({
  logo_key: z.string({ required_error: FILE_REQUIRED }).min(1, FILE_REQUIRED),
  favicon_key: z.string({ required_error: FILE_REQUIRED }).min(1, FILE_REQUIRED),
  title: z.string().trim().min(1, 'Title is required'),
  description: z.string().trim().min(1, 'Description is required'),
  primary: hex('primary'),
  secondary: hex('secondary'),
  tertiary: hex('tertiary'),
});

export type BrandingInput = z.infer<typeof brandingSchema>;

export const updateBranding = (b: BrandingInput) =>
  api.put<unknown>('/partner/branding', {
    title: b.title,
    description: b.description,
    logo_key: b.logo_key,
    favicon_key: b.favicon_key,
    theme: { primary: b.primary, secondary: b.secondary, tertiary: b.tertiary },
  });
