import { SignupForm } from '@/features/auth/components/signup-form';
import { WizardFrame } from '@/features/onboarding/components/wizard-frame';

export default function SignupPage() {
  return (
    <WizardFrame step={1}>
      <SignupForm />
    </WizardFrame>
  );
}
