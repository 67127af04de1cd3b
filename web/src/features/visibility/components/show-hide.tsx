// The Show / Hide pair of every visibility screen, applied on selection.
export function ShowHide({ label, name, shown, disabled, onChange }: { label: string; name: string; shown: boolean; disabled: boolean; onChange: (shown: boolean) => void }) {
  return (
    <div className="radio-group" role="radiogroup" aria-label={label}>
      <label>
        <input type="radio" name={name} checked={shown} disabled={disabled} onChange={() => onChange(true)} /> Show
      </label>
      <label>
        <input type="radio" name={name} checked={!shown} disabled={disabled} onChange={() => onChange(false)} /> Hide
      </label>
    </div>
  );
}
