// The add/edit form of a catalogue API (spec part 2, §5): name, category, service,
// description, endpoint, documentation link, curl code and response code required; the
// response code must be a JSON object; parameter names optional.
import { z } from 'zod';
import { rupeeField } from '@/lib/money';
import { paiseToRupees } from '@/lib/money';
import type { CatalogueApi } from './types';

export const RESPONSE_CODE_MESSAGE = 'please enter response code as object ex: {"key":"value"}';

const required = (label: string) => z.string().trim().min(1, `${label} is required`);

export function parseResponseCode(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export const apiFormSchema = z.object({
  name: required('Name'),
  category: required('Category'),
  service: required('Service'),
  description: required('Description'),
  endpoint: required('Endpoint'),
  documentation_link: required('Documentation link'),
  curl_code: required('Curl code'),
  response_code: z
    .string()
    .trim()
    .min(1, 'Response code is required')
    .transform((text, ctx) => {
      const obj = parseResponseCode(text);
      if (!obj) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: RESPONSE_CODE_MESSAGE });
        return z.NEVER;
      }
      return obj;
    }),
  method: z.enum(['get', 'post']),
  param_name: z.string().trim(),
  header_param_name: z.string().trim(),
  required_fields: z
    .string()
    .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean)),
  default_price: rupeeField({ required: 'Price is required', number: 'Price must be a number', negative: 'Price cannot be negative' }),
  pid: z.string().trim(),
  is_hidden: z.boolean(),
  is_verified: z.boolean(),
  is_new: z.boolean(),
  status: z.boolean(),
});

export type ApiForm = z.input<typeof apiFormSchema>;
export type ApiFormData = z.output<typeof apiFormSchema>;

/** The JSON body of POST / PUT. */
export type ApiPayload = Omit<ApiFormData, 'default_price' | 'pid'> & { default_price_paise: number; pid?: string };

export function toPayload({ default_price, pid, ...rest }: ApiFormData): ApiPayload {
  return { ...rest, default_price_paise: default_price, ...(pid ? { pid } : {}) };
}

export function initialForm(api: CatalogueApi | null): ApiForm {
  return {
    name: api?.name ?? '',
    category: api?.category ?? '',
    service: api?.service ?? '',
    description: api?.description ?? '',
    endpoint: api?.endpoint ?? '',
    documentation_link: api?.documentation_link ?? '',
    curl_code: api?.curl_code ?? '',
    response_code: api ? JSON.stringify(api.response_code, null, 2) : '',
    method: api?.method === 'get' ? 'get' : 'post',
    param_name: api?.param_name ?? '',
    header_param_name: api?.header_param_name ?? '',
    required_fields: api?.required_fields.join(', ') ?? '',
    default_price: api ? paiseToRupees(api.default_price_paise) : '',
    pid: api?.pid ?? '',
    is_hidden: api?.is_hidden ?? false,
    is_verified: api?.is_verified ?? true,
    is_new: api?.is_new ?? false,
    status: api?.status ?? true,
  };
}

/** Server field names -> form field names. */
export function formErrorsFrom(fields: Record<string, string>): Partial<Record<keyof ApiForm, string>> {
  const out: Partial<Record<keyof ApiForm, string>> = {};
  for (const [k, v] of Object.entries(fields)) {
    const key = (k === 'default_price_paise' ? 'default_price' : k) as keyof ApiForm;
    out[key] = v;
  }
  return out;
}
