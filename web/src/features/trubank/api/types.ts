export type RequestStatus = 'pending' | 'verified' | 'not_verified';

/** A request of the partner's queue (`GET /partner/bank-statements`). */
export type BankStatementRequest = {
  id: number;
  request_id: string;
  user_id: number;
  account_name: string;
  account_number: string;
  bank_name: string;
  status: RequestStatus;
  comment: string | null;
  /** The statement, a link signed at each read (valid one hour). */
  file_url: string;
  result_file_url: string | null;
  amount_paise: number;
  user_amount_paise: number;
  created_at: string;
  updated_at: string;
  decided_at: string | null;
};

export const STATUS_LABELS: Record<RequestStatus, string> = {
  pending: 'Pending',
  verified: 'Verified',
  not_verified: 'Not verified',
};
