// A colour with both a picker and a hex text field kept in step.
export function ColourField(props: { id: string; label: string; value: string; error?: string; onChange: (v: string) => void }) {
  const valid = /^#[0-9a-fA-F]{6}$/.test(props.value);
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <div className="colour-field">
        <input
          type="color"
          aria-label={`${props.label} picker`}
          value={valid ? props.value.toLowerCase() : '#000000'}
          onChange={(e) => props.onChange(e.target.value.toUpperCase())}
        />
        <input id={props.id} type="text" maxLength={7} value={props.value} onChange={(e) => props.onChange(e.target.value)} />
      </div>
      {props.error && <span className="field-error">{props.error}</span>}
    </div>
  );
}
