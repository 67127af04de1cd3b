// The frame shared by /signup and /complete-details.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PLATFORM_NAME } from '@/lib/brand';
import { StepIndicator } from './step-indicator';

export function WizardFrame({ step, children }: { step: number; children: ReactNode }) {
  return (
    <div className="auth-page">
      <header className="auth-header">
        <Link to="/" className="brand-text">
          {PLATFORM_NAME}
        </Link>
        {step === 1 ? (
          <span className="wizard-header-label">Signup</span>
        ) : (
          <Link to="/dashboard" className="btn btn-outline">
            Dashboard
          </Link>
        )}
      </header>
      <main className="auth-main">
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
      </main>
    </div>
  );
}
