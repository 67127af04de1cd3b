// Webhook endpoints and deliveries as `/me/webhooks…` and `/partner/webhooks…` answer them.

/** Whose endpoints: the signed-in end user's (`/me`) or the partner's own (`/partner`). */
export type WebhookScope = 'me' | 'partner';

export type Endpoint = {
  id: number;
  url: string;
  events: string[];
  enabled: boolean;
  /** Set while the platform has it disabled (every delivery failed for 5 days). */
  disabled_reason: string | null;
  previous_secret_until: string | null;
  created_at: string;
};

/** The answer to a creation: the secret is in it only. */
export type CreatedEndpoint = Endpoint & { secret: string };

export type Attempt = { at: string; status_code: number | null; latency_ms: number; response_excerpt: string };

export type Delivery = {
  id: number;
  event_id: string;
  type: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: Attempt[];
  next_attempt_at: string | null;
  created_at: string;
};

export type Page<T> = { items: T[]; page: number; per_page: number; total: number; pages: number };

/** The events each owner may subscribe to, with what they mean. */
export const EVENTS: Record<WebhookScope, { type: string; label: string }[]> = {
  me: [
    { type: 'batch.completed', label: 'A batch finished' },
    { type: 'trubank.status_changed', label: 'A TruBank request was decided' },
    { type: 'wallet.low_balance', label: 'A wallet fell below its alert threshold' },
    { type: 'export.completed', label: 'An export is ready' },
    { type: 'webhook.test', label: 'Test events' },
  ],
  partner: [
    { type: 'user.signed_up', label: 'A user signed up on your site' },
    { type: 'trubank.requested', label: 'A user sent a TruBank request' },
    { type: 'wallet.low_balance', label: 'A wallet of yours fell below its alert threshold' },
    { type: 'export.completed', label: 'An export is ready' },
    { type: 'batch.completed', label: 'A batch finished' },
    { type: 'trubank.status_changed', label: 'A TruBank request was decided' },
    { type: 'webhook.test', label: 'Test events' },
  ],
};
