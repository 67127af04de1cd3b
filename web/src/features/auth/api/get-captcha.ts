import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { authKeys } from './keys';

export type Captcha = { id: string; image: string };
/** The captcha as the sign-in and sign-up calls take it. */
export type CaptchaAnswer = { id: string; answer: string } | null;

export const getCaptcha = () => api.get<Captcha>('/auth/captcha', { auth: 'none' });

/** A fresh built-in captcha per form; `refresh` fetches a new one. */
export function useCaptcha(form: string) {
  const q = useQuery({
    queryKey: authKeys.captcha(form),
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
