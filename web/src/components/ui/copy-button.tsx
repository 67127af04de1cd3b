// A button that copies a text (a key, a curl command) and says 'Copied to clipboard'.
import { useToast } from './toast';
import { CopyIcon } from './icons';

export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Without the async clipboard (plain http), fall back to a hidden field.
    const area = document.createElement('textarea');
    area.value = text;
    document.body.appendChild(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
}

export function CopyButton({ text, label, children }: { text: string; label: string; children?: string }) {
  const toast = useToast();
  return (
    <button
      type="button"
      className={children ? 'btn btn-secondary btn-sm' : 'icon-button'}
      aria-label={children ? undefined : label}
      title={label}
      onClick={async () => {
        await copyText(text);
        toast.show('Copied to clipboard', 2000);
      }}
    >
      <CopyIcon /> {children}
    </button>
  );
}
