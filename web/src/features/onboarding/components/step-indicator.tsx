// Seven dots and six labels (spec part 1 "Signup"): one dot per step, and a
// last dot that fills in once the link page is reached.
export const STEP_LABELS = [
  'Basic details',
  'Pricing and Payment',
  'Upload domain details',
  'Upload logo',
  'SMTP Details',
  'Get your link',
] as const;

export function StepIndicator({ current }: { current: number }) {
  const dots = STEP_LABELS.length + 1;
  return (
    <div className="steps" aria-label={`Step ${current} of ${STEP_LABELS.length}`}>
      <div className="steps-dots">
        {Array.from({ length: dots }, (_, i) => {
          const step = i + 1;
          const state = step < current || (current === STEP_LABELS.length && step === dots) ? 'done' : step === current ? 'current' : '';
          return (
            <span key={step} style={{ display: 'contents' }}>
              {i > 0 && <span className={`steps-line ${step <= current || current === STEP_LABELS.length ? 'done' : ''}`} />}
              <span className={`steps-dot ${state}`} data-testid="step-dot" />
            </span>
          );
        })}
      </div>
      <div className="steps-labels" style={{ gridTemplateColumns: `repeat(${STEP_LABELS.length}, 1fr)` }}>
        {STEP_LABELS.map((label, i) => (
          <span key={label} className={i + 1 === current ? 'current' : ''}>
            {label}
          </span>
        ))}
      </div>
    </div>
  );
}
