// Sign-in through the real forms (CAPTCHA is off in the e2e platform).
// scripts/test starts the platform and passes the seeded passwords; without them the specs
// fail rather than skip.
import { expect, type Page } from '@playwright/test';

function required(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the e2e tests through scripts/test`);
  return v;
}

export const demoPassword = required('E2E_DEMO_PASSWORD');
export const adminEmail = required('E2E_SUPERADMIN_EMAIL');
export const adminPassword = required('E2E_SUPERADMIN_PASSWORD');

export async function signInSuperAdmin(page: Page) {
  await page.goto('/superadmin/auth');
  await page.getByLabel('Username').fill(adminEmail);
  await page.getByLabel('Password', { exact: true }).fill(adminPassword);
  await page.getByLabel('Captcha', { exact: true }).fill('any');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/superadmin\/dashboard$/);
}

/** Fills the partner sign-in form at /auth and presses Login; the caller checks the outcome. */
export async function submitPartnerSignIn(page: Page, email: string, password: string) {
  await page.goto('/auth');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Captcha', { exact: true }).fill('any');
  await page.getByRole('checkbox', { name: /terms/i }).check();
  await page.getByRole('button', { name: 'Login' }).click();
}

export async function signInPartner(page: Page) {
  await submitPartnerSignIn(page, 'demo@example.in', demoPassword);
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** "₹2,28,251.50" -> 22825150 paise. */
export function paiseOf(text: string | null): number {
  const digits = (text ?? '').replace(/[^\d.-]/g, '');
  const [whole, frac = ''] = digits.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0').slice(0, 2));
}
