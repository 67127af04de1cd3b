// The built-in image captcha of every sign-in and sign-up form (partner, super admin, portal).
import { useQuery } from '@tanstack/react-query';
import { api } from './api-client';

/** One captcha per form; `gcTime: 0` drops it once its form is gone. */
export const captchaKeys = { form: (form: string) => ['captcha', form] as const };

export type Captcha = { id: string; image: string };
/** The captcha as the sign-in and sign-up calls take it. */
export type CaptchaAnswer = { id: string; answer: string } | null;

export const getCaptcha = () => api.get<Captcha>('/auth/captcha', { auth: 'none' });

/** A fresh built-in captcha per form; `refresh` fetches a new one. */
export function useCaptcha(form: string) {
  const q = useQuery({
    queryKey: captchaKeys.form(form),
    queryFn: getCaptcha,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  return { captcha: q.data, isLoading: q.isFetching, refresh: () => q.refetch() };
}

export function captchaPayload(captcha: Captcha | undefined, answer: string): CaptchaAnswer {
  return captcha ? { id: captcha.id, answer: answer.trim() } : null;
}
