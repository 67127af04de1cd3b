import type { ReactNode } from 'react';

/** A labelled form field with its validation message underneath. */
export function Field(props: { label: ReactNode; htmlFor: string; error?: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={props.htmlFor}>{props.label}</label>
      {props.children}
      {props.hint && <span className="field-hint">{props.hint}</span>}
      {props.error && (
        <span className="field-error" id={`${props.htmlFor}-error`}>
          {props.error}
        </span>
      )}
    </div>
  );
}
