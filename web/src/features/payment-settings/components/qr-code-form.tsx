// Payment, Qr Code: the QR image (png, jpg or jpeg under 1 MB) and what the users read beside
// it; until the partner writes a description, the default instruction is what they read.
import { useState } from 'react';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { ImageUploadField } from '@/components/ui/image-upload-field';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useZodForm } from '@/lib/form';
import { LOGO_MAX_BYTES, TOO_LARGE_1MB } from '@/lib/uploads';
import { qrSchema, useSaveQr, type QrPayment, type QrValues } from '../api/payment-settings';

export function QrCodeForm({ qr }: { qr: QrPayment }) {
  const form = useZodForm<typeof qrSchema, QrValues>(qrSchema, { qr_key: qr.qr_key ?? '', description: qr.description });
  const [uploads, setUploads] = useState(0);
  const save = useSaveQr();
  const msg = useTimedMessage();
  return (
    <form
      className="form"
      noValidate
      aria-label="Qr Code"
      onSubmit={form.handleSubmit((d) =>
        save.mutate(d, {
          onSuccess: () => msg.success('QR code saved'),
          onError: (e) => {
            if (e instanceof ApiError && Object.keys(e.fields).length) form.setErrors(e.fields);
            else msg.error(errorMessage(e));
          },
        }),
      )}
    >
      <Alert message={msg.message} onClose={msg.clear} />
      {!qr.qr_key && (
        <div className="notice" role="note">
          <strong>No QR code yet.</strong> Your users are told: {qr.default_description}
        </div>
      )}
      <ImageUploadField
        id="qr-image"
        label="QR code"
        hint="png, jpg or jpeg, under 1 MB"
        purpose="qr"
        maxBytes={LOGO_MAX_BYTES}
        tooLargeMessage={TOO_LARGE_1MB}
        error={form.errors.qr_key}
        onUploading={(busy) => setUploads((n) => n + (busy ? 1 : -1))}
        onUploaded={(k) => form.setValue('qr_key', k ?? qr.qr_key ?? '')}
        currentUrl={qr.image_url}
        largePreview
      />
      <Field label="Description" htmlFor="qr-description" error={form.errors.description} hint="Left empty, your users read the default instruction.">
        <textarea id="qr-description" rows={3} placeholder={qr.default_description} {...form.text('description')} />
      </Field>
      <div className="button-row">
        <button type="submit" className="btn btn-primary" disabled={save.isPending || uploads > 0}>
          {save.isPending ? 'Wait...' : uploads > 0 ? 'Uploading...' : 'Save'}
        </button>
      </div>
    </form>
  );
}
