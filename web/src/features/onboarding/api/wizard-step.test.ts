import { wizardStep } from './wizard-step';

const status = (over: Partial<Parameters<typeof wizardStep>[1] & object> = {}) => ({
  subdomain_done: true,
  branding_done: true,
  smtp_done: true,
  onboarding_step: 6,
  ...over,
});

describe('wizardStep', () => {
  it('starts at basic details without a session', () => {
    expect(wizardStep(false, undefined)).toBe(1);
  });
  it('opens pricing when there is no sub-domain and no plan yet', () => {
    expect(wizardStep(true, status({ subdomain_done: false, onboarding_step: 2 }))).toBe(2);
  });
  it('opens the sub-domain step once a plan was chosen', () => {
    expect(wizardStep(true, status({ subdomain_done: false, onboarding_step: 3 }))).toBe(3);
  });
  it('follows the three status checks', () => {
    expect(wizardStep(true, status({ branding_done: false, smtp_done: false, onboarding_step: 4 }))).toBe(4);
    expect(wizardStep(true, status({ smtp_done: false, onboarding_step: 5 }))).toBe(5);
    expect(wizardStep(true, status())).toBe(6);
  });
  it('treats a skipped SMTP step as done', () => {
    expect(wizardStep(true, status({ smtp_done: false, onboarding_step: 6 }))).toBe(6);
  });
});
