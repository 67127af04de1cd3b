// Message boxes of the spec (§8): titled 'Error!' or 'Success', with a Close
// link, cleared after 5 seconds unless told otherwise.
import { useCallback, useEffect, useRef, useState } from 'react';

export type AlertMessage = { kind: 'error' | 'success'; text: string };

export const MESSAGE_TIMEOUT_MS = 5000;

/** Holds one message and clears it after `ms` milliseconds. */
export function useTimedMessage(defaultMs = MESSAGE_TIMEOUT_MS) {
  const [message, setMessage] = useState<AlertMessage | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const clear = useCallback(() => {
    clearTimeout(timer.current);
    setMessage(null);
  }, []);

  const show = useCallback(
    (kind: AlertMessage['kind'], text: string, ms = defaultMs) => {
      clearTimeout(timer.current);
      setMessage({ kind, text });
      timer.current = setTimeout(() => setMessage(null), ms);
    },
    [defaultMs],
  );

  useEffect(() => () => clearTimeout(timer.current), []);

  return {
    message,
    clear,
    error: useCallback((text: string, ms?: number) => show('error', text, ms), [show]),
    success: useCallback((text: string, ms?: number) => show('success', text, ms), [show]),
  };
}

export function Alert({ message, onClose }: { message: AlertMessage | null; onClose?: () => void }) {
  if (!message) return null;
  const isError = message.kind === 'error';
  return (
    <div className={`alert ${isError ? 'alert-error' : 'alert-success'}`} role={isError ? 'alert' : 'status'}>
      <div>
        <strong className="alert-title">{isError ? 'Error!' : 'Success'}</strong> {message.text}
      </div>
      {onClose && (
        <button type="button" className="link-button alert-close" onClick={onClose}>
          Close
        </button>
      )}
    </div>
  );
}
