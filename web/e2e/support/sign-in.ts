// Sign-in through the real forms (CAPTCHA is off in the e2e platform).
import { expect, type APIRequestContext, type Page } from '@playwright/test';

export const demoPassword = process.env.E2E_DEMO_PASSWORD;
export const adminEmail = process.env.E2E_SUPERADMIN_EMAIL;
export const adminPassword = process.env.E2E_SUPERADMIN_PASSWORD;

/** True once the api answers `path` (anything but 404/405), so specs wait for the backend. */
export async function served(request: APIRequestContext, path: string, method: 'GET' | 'POST' = 'GET') {
  const res = method === 'GET' ? await request.get(path) : await request.post(path, { data: {} });
  return res.status() !== 404 && res.status() !== 405;
}

export async function signInSuperAdmin(page: Page) {
  await page.goto('/superadmin/auth');
  await page.getByLabel('Username').fill(adminEmail!);
  await page.getByLabel('Password', { exact: true }).fill(adminPassword!);
  await page.getByLabel('Captcha', { exact: true }).fill('any');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/superadmin\/dashboard$/);
}

export async function signInPartner(page: Page) {
  await page.goto('/auth');
  await page.getByLabel('Email').fill('demo@example.in');
  await page.getByLabel('Password', { exact: true }).fill(demoPassword!);
  await page.getByLabel('Captcha', { exact: true }).fill('any');
  await page.getByRole('checkbox', { name: /terms/i }).check();
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** "₹2,28,251.50" -> 22825150 paise. */
export function paiseOf(text: string | null): number {
  const digits = (text ?? '').replace(/[^\d.-]/g, '');
  const [whole, frac = ''] = digits.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0').slice(0, 2));
}
