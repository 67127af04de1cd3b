// The frame shared by /signup and /complete-details.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { AuthLayout } from '@/components/layouts/auth-layout';
import { StepIndicator } from './step-indicator';

export function WizardFrame({ step, children }: { step: number; children: ReactNode }) {
  return (
    <AuthLayout
      headerRight={
        step === 1 ? (
          <span className="wizard-header-label">Signup</span>
        ) : (
          <Link to="/dashboard" className="btn btn-outline">
            Dashboard
          </Link>
        )
      }
    >
      <div className="card wizard-card">
        <h1 className="center">Signup for whitelabel</h1>
        <StepIndicator current={step} />
        {children}
        {step === 1 && (
          <p className="center">
            Already have an account? <Link to="/auth">Log In</Link>
          </p>
        )}
      </div>
    </AuthLayout>
  );
}
