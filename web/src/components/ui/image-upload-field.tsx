// An image picker (logo, favicon, a payment logo, a QR code): checks type and size, uploads at
// once, keeps the key.
import { useState } from 'react';
import { IMAGE_TYPES, uploadFile, type UploadPurpose } from '@/lib/uploads';

type ImageUploadFieldProps = {
  id: string;
  label: string;
  hint: string;
  purpose: UploadPurpose;
  maxBytes: number;
  tooLargeMessage: string;
  error?: string;
  onUploading: (busy: boolean) => void;
  onUploaded: (key: string | undefined) => void;
  /** The file already saved (My Account): shown until another is chosen. */
  currentUrl?: string | null;
  /** A larger preview, for a picture people must read (a QR code). */
  largePreview?: boolean;
};

export function ImageUploadField(props: ImageUploadFieldProps) {
  const [picked, setPreview] = useState<string>();
  const preview = picked ?? props.currentUrl ?? undefined;
  const [localError, setLocalError] = useState<string>();

  const pick = async (file: File | undefined) => {
    setLocalError(undefined);
    props.onUploaded(undefined);
    if (!file) return;
    if (!IMAGE_TYPES.includes(file.type)) return setLocalError('Only png, jpg and jpeg files are allowed');
    if (file.size > props.maxBytes) return setLocalError(props.tooLargeMessage);
    props.onUploading(true);
    try {
      const { key } = await uploadFile(file, props.purpose);
      setPreview(URL.createObjectURL(file));
      props.onUploaded(key);
    } catch (e) {
      // Spec: upload failures are only logged; the missing key is caught on Next.
      console.error('upload failed', e);
    } finally {
      props.onUploading(false);
    }
  };

  const error = localError ?? props.error;
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <div className="upload-row">
        <input id={props.id} type="file" accept=".png,.jpg,.jpeg,image/png,image/jpeg" onChange={(e) => pick(e.target.files?.[0])} />
        {preview && <img src={preview} alt={`${props.label} preview`} className={props.largePreview ? 'upload-preview upload-preview-large' : 'upload-preview'} />}
      </div>
      <span className="field-hint">{props.hint}</span>
      {error && <span className="field-error">{error}</span>}
    </div>
  );
}
