/** An allow-listed or blocked IP of one of the partner's users. */
export type IpEntry = { id: number; user_id: number; ip: string; comments: string; created_at: string; updated_at: string };
