import type { Captcha } from '@/lib/captcha';
import { RefreshIcon } from './icons';

type CaptchaFieldProps = {
  id: string;
  captcha: Captcha | undefined;
  loading: boolean;
  value: string;
  error?: string;
  onChange: (value: string) => void;
  onRefresh: () => void;
};

/** The built-in image captcha: picture, refresh button and the answer field. */
export function CaptchaField({ id, captcha, loading, value, error, onChange, onRefresh }: CaptchaFieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>Captcha</label>
      <div className="captcha-row">
        {captcha ? <img src={captcha.image} alt="Captcha" /> : <span className="field-hint">{loading ? 'Loading...' : ''}</span>}
        <button type="button" className="icon-button" aria-label="Refresh captcha" title="Refresh captcha" onClick={onRefresh}>
          <RefreshIcon />
        </button>
        <input
          id={id}
          type="text"
          autoComplete="off"
          placeholder="Enter the characters shown"
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      </div>
      {error && <span className="field-error">{error}</span>}
    </div>
  );
}
