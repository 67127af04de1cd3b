//! Grouped charging of metered calls (design.md, "The metered gateway").
//!
//! One transaction per call tops out near Postgres's commit rate on one partner's wallet, which
//! every call of every user of that partner debits. So each api process hands its charges and
//! settlements to one [`Charger`] task through a channel; the task takes what has arrived (up to
//! [`MAX_BATCH`]) and applies it with [`apply_batch`] in ONE transaction:
//!
//! 1. settlements first mark their pending transactions `success` or `refunded` (only rows still
//!    `pending` change, so a settlement is applied once however often it is sent, by the gateway
//!    or by the `settle_pending` job);
//! 2. every wallet involved is locked in id order (`FOR UPDATE`): two batches from two api
//!    processes, or a batch and a single-wallet `wallets::apply`, can never wait on each other
//!    in a cycle;
//! 3. calls are decided one by one in arrival order against the locked balances: one the user's
//!    or the partner's wallet cannot cover is answered `Insufficient` and the others go on;
//! 4. transactions, ledger entries, balances and API logs are written with set-based statements
//!    (`UNNEST`), and the batch commits before any caller is answered.
//!
//! A charge whose answer is known before it is made (a sandbox call: the catalogue's sample, a
//! 2xx) carries its settlement ([`Charge::settled`]): it is written `success` with its API log in
//! the same batch, one write instead of two.
//!
//! The ledger entries are the record of these movements (reference `TXN{id}`); the per-movement
//! audit row of `wallets::apply` is left out here on purpose, as it would double the writes of the
//! hot path and say nothing the entry and the transaction row do not.

use std::{
    collections::HashMap,
    net::IpAddr,
    sync::{
        LazyLock,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use sqlx::{PgConnection, PgPool};
use tokio::sync::{mpsc, oneshot};

use super::{LowBalance, WalletKind};
use crate::{Error, Result, infra::metrics::Histogram};

/// Most calls one transaction takes; more waiting calls go into the next one.
pub const MAX_BATCH: usize = 256;

/// A metered call to charge: the user's wallet at the user price, the partner's at the partner
/// price. Wallet ids may be `None` only where the amount is zero.
#[derive(Debug, Clone)]
pub struct Charge {
    pub partner_id: i64,
    pub user_id: i64,
    pub api_id: i64,
    pub service: String,
    pub pid: String,
    /// `live` or `sandbox`.
    pub mode: &'static str,
    pub amount_paise: i64,
    pub user_amount_paise: i64,
    pub user_wallet_id: Option<i64>,
    pub partner_wallet_id: Option<i64>,
    /// A charge with a key is made at most once: a second one with the same key answers
    /// [`Outcome::Duplicate`] and moves nothing (a batch row retried or resumed by its job).
    pub idempotency_key: Option<String>,
    /// The call already succeeded (a sandbox call's sample answer, status 200): the transaction
    /// is written `success` with this API log, in the charge's own write.
    pub settled: Option<CallLog>,
    /// The API key that made the call (the usage per key); `None` for the portal's console.
    pub key_id: Option<i64>,
}

/// The end of a call: a 2xx keeps the charge, anything else refunds both wallets.
#[derive(Debug, Clone)]
pub struct Settle {
    pub transaction_id: i64,
    pub success: bool,
    pub status_code: i32,
    /// The API log row written with the settlement (none when `settle_pending` heals a crash:
    /// nobody saw an answer).
    pub log: Option<CallLog>,
}

#[derive(Debug, Clone)]
pub struct CallLog {
    pub vid: String,
    pub vpid: String,
    pub ip: Option<IpAddr>,
    pub latency_ms: i32,
    /// Keep the call's answer (`api_results`, `GET /verify/transactions/{id}`) in the log's own
    /// statement, so keeping it costs the hot path no write of its own.
    pub keep: bool,
    /// The answer, sealed by the caller (`gateway::results::seal`) off the charging task;
    /// `None` with `keep`: too large to keep, the row says so.
    pub sealed: Option<Vec<u8>>,
}

#[derive(Debug, Clone)]
pub enum Item {
    Charge(Charge),
    Settle(Settle),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Debited, with a pending transaction.
    Charged {
        transaction_id: i64,
        user_remaining_paise: i64,
        partner_remaining_paise: i64,
    },
    /// One of the two wallets could not cover the call: nothing was written.
    Insufficient,
    /// A transaction with the charge's idempotency key exists already: nothing was written.
    Duplicate { transaction_id: i64 },
    /// The transaction was pending and now is settled (`refunded`: both debits reversed).
    Settled { refunded: bool },
    /// The transaction was not pending any more (settled before, or unknown): nothing changed.
    AlreadySettled,
}

/// What a batch did besides its outcomes: wallets that crossed their low-balance threshold (the
/// batch queues one alert each in the same transaction, in `commit_batch`).
struct Applied {
    pub outcomes: Vec<Outcome>,
    pub low_balances: Vec<LowBalance>,
}

struct WalletState {
    balance: i64,
    threshold: Option<i64>,
    alerted: bool,
    partner_id: i64,
    user_id: Option<i64>,
    kind: String,
    touched: bool,
}

#[derive(Default)]
struct Entries {
    wallet: Vec<i64>,
    kind: Vec<&'static str>,
    amount: Vec<i64>,
    after: Vec<i64>,
    reason: Vec<&'static str>,
    reference: Vec<String>,
    actor: Vec<&'static str>,
    actor_id: Vec<Option<i64>>,
}

impl Entries {
    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        wallet: i64,
        kind: &'static str,
        amount: i64,
        after: i64,
        reason: &'static str,
        txn: i64,
        actor: &'static str,
        actor_id: Option<i64>,
    ) {
        self.wallet.push(wallet);
        self.kind.push(kind);
        self.amount.push(amount);
        self.after.push(after);
        self.reason.push(reason);
        self.reference.push(reference(txn));
        self.actor.push(actor);
        self.actor_id.push(actor_id);
    }
}

/// Gateway transactions still `pending` after `older_than`, oldest first, at most `limit`: the
/// calls a crashed api process never settled (`settle_pending` refunds them).
pub async fn stale_pending(
    pool: &PgPool,
    older_than: std::time::Duration,
    limit: usize,
) -> Result<Vec<i64>> {
    Ok(sqlx::query_scalar(
        "SELECT id FROM api_transactions
          WHERE status = 'pending' AND created_at < now() - $1 * interval '1 second'
          ORDER BY created_at LIMIT $2",
    )
    .bind(older_than.as_secs_f64())
    .bind(limit as i64)
    .fetch_all(pool)
    .await?)
}

/// The ledger reference of a gateway transaction's entries.
pub fn reference(transaction_id: i64) -> String {
    format!("TXN{transaction_id:08}")
}

#[derive(sqlx::FromRow)]
struct Locked {
    id: i64,
    balance_paise: i64,
    low_balance_threshold_paise: Option<i64>,
    low_balance_alerted: bool,
    partner_id: i64,
    user_id: Option<i64>,
    kind: String,
}

/// The columns of the new transactions, one vector each, for `UNNEST`.
#[derive(Default)]
struct NewTxns<'a> {
    id: Vec<i64>,
    partner: Vec<i64>,
    user: Vec<i64>,
    api: Vec<i64>,
    service: Vec<&'a str>,
    pid: Vec<&'a str>,
    mode: Vec<&'a str>,
    amount: Vec<i64>,
    user_amount: Vec<i64>,
    remaining: Vec<i64>,
    partner_remaining: Vec<i64>,
    idempotency_key: Vec<Option<&'a str>>,
    settled: Vec<bool>,
    key: Vec<Option<i64>>,
}

#[derive(sqlx::FromRow)]
struct SettledRow {
    id: i64,
    partner_id: i64,
    user_id: i64,
    amount_paise: i64,
    user_amount_paise: i64,
    refund: bool,
}

/// Applies `items` in arrival order on `conn`, which must be inside a transaction (the caller
/// commits). The steps are the module doc's.
async fn apply_batch(conn: &mut PgConnection, items: &[Item]) -> Result<Applied> {
    let mut outcomes: Vec<Option<Outcome>> = vec![None; items.len()];
    let settled = settle_pending(conn, items, &mut outcomes).await?;
    let refund_wallets = refund_wallets(conn, &settled).await?;
    let mut wallets = lock_wallets(conn, items, &refund_wallets).await?;
    let charged_keys = charged_keys(conn, items).await?;
    let txn_ids = new_transaction_ids(conn, items).await?;
    let decided = decide(
        items,
        &settled,
        &refund_wallets,
        &mut wallets,
        charged_keys,
        txn_ids,
        &mut outcomes,
    )?;
    write_transactions(conn, items, &decided.txns).await?;
    write_entries(conn, &decided.entries).await?;
    write_refunded(conn, &decided.refunded).await?;
    let low_balances = write_balances(conn, &wallets).await?;
    write_logs(conn, items, &settled, &decided.txns).await?;
    Ok(Applied {
        outcomes: outcomes
            .into_iter()
            .map(|o| o.expect("every item decided"))
            .collect(),
        low_balances,
    })
}

/// Step 1: settlements mark their transactions, only those still pending; a transaction named
/// twice in one batch is settled by its first mention. Returns the rows that changed.
async fn settle_pending(
    conn: &mut PgConnection,
    items: &[Item],
    outcomes: &mut [Option<Outcome>],
) -> Result<HashMap<i64, SettledRow>> {
    let mut settle_ids = Vec::new();
    let mut settle_ok = Vec::new();
    let mut settle_code = Vec::new();
    let mut first_mention: HashMap<i64, usize> = HashMap::new();
    for (i, item) in items.iter().enumerate() {
        if let Item::Settle(s) = item {
            if first_mention.contains_key(&s.transaction_id) {
                outcomes[i] = Some(Outcome::AlreadySettled);
                continue;
            }
            first_mention.insert(s.transaction_id, i);
            settle_ids.push(s.transaction_id);
            settle_ok.push(s.success);
            settle_code.push(s.status_code);
        }
    }
    if settle_ids.is_empty() {
        return Ok(HashMap::new());
    }
    let settled: Vec<SettledRow> = sqlx::query_as(
        "UPDATE api_transactions t
            SET status = CASE WHEN x.ok THEN 'success' ELSE 'refunded' END, status_code = x.code, settled_at = now()
           FROM UNNEST($1::bigint[], $2::bool[], $3::int[]) AS x(id, ok, code)
          WHERE t.id = x.id AND t.status = 'pending'
      RETURNING t.id, t.partner_id, t.user_id, t.amount_paise, t.user_amount_paise, NOT x.ok AS refund",
    )
    .bind(&settle_ids)
    .bind(&settle_ok)
    .bind(&settle_code)
    .fetch_all(&mut *conn)
    .await?;
    let settled: HashMap<i64, SettledRow> = settled.into_iter().map(|r| (r.id, r)).collect();
    for (id, &i) in &first_mention {
        if !settled.contains_key(id) {
            outcomes[i] = Some(Outcome::AlreadySettled);
        }
    }
    Ok(settled)
}

/// The API wallets (user's, partner's) of each refunded transaction's owners.
async fn refund_wallets(
    conn: &mut PgConnection,
    settled: &HashMap<i64, SettledRow>,
) -> Result<HashMap<i64, (Option<i64>, Option<i64>)>> {
    let refunds: Vec<&SettledRow> = settled
        .values()
        .filter(|r| r.refund && (r.amount_paise > 0 || r.user_amount_paise > 0))
        .collect();
    let mut refund_wallets: HashMap<i64, (Option<i64>, Option<i64>)> = HashMap::new();
    if refunds.is_empty() {
        return Ok(refund_wallets);
    }
    let ids: Vec<i64> = refunds.iter().map(|r| r.id).collect();
    let partners: Vec<i64> = refunds.iter().map(|r| r.partner_id).collect();
    let users: Vec<i64> = refunds.iter().map(|r| r.user_id).collect();
    let rows: Vec<(i64, i64, bool)> = sqlx::query_as(
        "SELECT x.txn, w.id, w.user_id IS NULL
           FROM UNNEST($1::bigint[], $2::bigint[], $3::bigint[]) AS x(txn, partner_id, user_id)
           JOIN wallets w ON w.kind = 'api' AND w.partner_id = x.partner_id
                         AND (w.user_id = x.user_id OR w.user_id IS NULL)",
    )
    .bind(&ids)
    .bind(&partners)
    .bind(&users)
    .fetch_all(&mut *conn)
    .await?;
    for (txn, wallet, is_partner) in rows {
        let e = refund_wallets.entry(txn).or_default();
        if is_partner {
            e.1 = Some(wallet)
        } else {
            e.0 = Some(wallet)
        }
    }
    Ok(refund_wallets)
}

/// Step 2: every wallet the batch debits or refunds, locked in id order.
async fn lock_wallets(
    conn: &mut PgConnection,
    items: &[Item],
    refund_wallets: &HashMap<i64, (Option<i64>, Option<i64>)>,
) -> Result<HashMap<i64, WalletState>> {
    let mut wallet_ids: Vec<i64> = Vec::new();
    for item in items {
        if let Item::Charge(c) = item {
            wallet_ids.extend(c.user_wallet_id.filter(|_| c.user_amount_paise > 0));
            wallet_ids.extend(c.partner_wallet_id.filter(|_| c.amount_paise > 0));
        }
    }
    for (u, p) in refund_wallets.values() {
        wallet_ids.extend(u.iter().chain(p.iter()));
    }
    wallet_ids.sort_unstable();
    wallet_ids.dedup();
    if wallet_ids.is_empty() {
        return Ok(HashMap::new());
    }
    let rows: Vec<Locked> = sqlx::query_as(
        "SELECT id, balance_paise, low_balance_threshold_paise, low_balance_alerted, partner_id, user_id, kind
           FROM wallets WHERE id = ANY($1) ORDER BY id FOR UPDATE",
    )
    .bind(&wallet_ids)
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|w| {
            let state = WalletState {
                balance: w.balance_paise,
                threshold: w.low_balance_threshold_paise,
                alerted: w.low_balance_alerted,
                partner_id: w.partner_id,
                user_id: w.user_id,
                kind: w.kind,
                touched: false,
            };
            (w.id, state)
        })
        .collect())
}

/// Keys already charged. Looked up after the locks: a concurrent charge with the same key
/// debits the same wallets, so it has committed (and is seen here) or waits behind us. The
/// unique index is the last guard, for a free call that locks nothing.
async fn charged_keys(conn: &mut PgConnection, items: &[Item]) -> Result<HashMap<String, i64>> {
    let keys: Vec<&str> = items
        .iter()
        .filter_map(|i| match i {
            Item::Charge(c) => c.idempotency_key.as_deref(),
            Item::Settle(_) => None,
        })
        .collect();
    if keys.is_empty() {
        return Ok(HashMap::new());
    }
    Ok(sqlx::query_as::<_, (String, i64)>(
        "SELECT idempotency_key, id FROM api_transactions WHERE idempotency_key = ANY($1)",
    )
    .bind(&keys)
    .fetch_all(&mut *conn)
    .await?
    .into_iter()
    .collect())
}

/// One transaction id per charge of the batch, in one round trip.
async fn new_transaction_ids(conn: &mut PgConnection, items: &[Item]) -> Result<Vec<i64>> {
    let charges = items
        .iter()
        .filter(|i| matches!(i, Item::Charge(_)))
        .count();
    if charges == 0 {
        return Ok(Vec::new());
    }
    Ok(sqlx::query_scalar(
        "SELECT nextval(pg_get_serial_sequence('api_transactions', 'id')) FROM generate_series(1, $1)",
    )
    .bind(charges as i64)
    .fetch_all(&mut *conn)
    .await?)
}

/// What step 3 decided: the new transactions (item, id, user remaining, partner remaining) and
/// the ledger entries.
struct Decided {
    txns: Vec<(usize, i64, i64, i64)>,
    entries: Entries,
    refunded: Refunded,
}

/// The refunded transactions with the user's and the partner's balance after each refund: a
/// refunded call nets to zero, so its row shows the balances after the refund.
#[derive(Default)]
struct Refunded {
    id: Vec<i64>,
    user_after: Vec<Option<i64>>,
    partner_after: Vec<Option<i64>>,
}

/// Step 3: each item in arrival order against the locked balances (in memory; nothing is
/// written here).
fn decide(
    items: &[Item],
    settled: &HashMap<i64, SettledRow>,
    refund_wallets: &HashMap<i64, (Option<i64>, Option<i64>)>,
    wallets: &mut HashMap<i64, WalletState>,
    mut charged_keys: HashMap<String, i64>,
    txn_ids: Vec<i64>,
    outcomes: &mut [Option<Outcome>],
) -> Result<Decided> {
    let mut next_txn = txn_ids.into_iter();
    let mut entries = Entries::default();
    let mut txns = Vec::new();
    let mut refunded = Refunded::default();
    for (i, item) in items.iter().enumerate() {
        match item {
            Item::Charge(c) => {
                let txn = next_txn.next().expect("one id per charge");
                if let Some(&transaction_id) =
                    c.idempotency_key.as_ref().and_then(|k| charged_keys.get(k))
                {
                    outcomes[i] = Some(Outcome::Duplicate { transaction_id });
                    continue;
                }
                let Some(remaining) = debit(c, txn, wallets, &mut entries) else {
                    outcomes[i] = Some(Outcome::Insufficient);
                    continue;
                };
                if let Some(k) = &c.idempotency_key {
                    charged_keys.insert(k.clone(), txn);
                }
                txns.push((i, txn, remaining[0], remaining[1]));
                outcomes[i] = Some(Outcome::Charged {
                    transaction_id: txn,
                    user_remaining_paise: remaining[0],
                    partner_remaining_paise: remaining[1],
                });
            }
            Item::Settle(s) => {
                if outcomes[i].is_some() {
                    continue;
                }
                let row = &settled[&s.transaction_id];
                if row.refund {
                    refund(row, refund_wallets, wallets, &mut entries, &mut refunded)?;
                }
                outcomes[i] = Some(Outcome::Settled {
                    refunded: row.refund,
                });
            }
        }
    }
    Ok(Decided {
        txns,
        entries,
        refunded,
    })
}

/// Debits both wallets of `c` when both cover it: the balances after (user's, partner's), or
/// `None` (nothing debited).
fn debit(
    c: &Charge,
    txn: i64,
    wallets: &mut HashMap<i64, WalletState>,
    entries: &mut Entries,
) -> Option<[i64; 2]> {
    let covers = |w: Option<i64>, amount: i64, wallets: &HashMap<i64, WalletState>| {
        amount == 0
            || w.and_then(|w| wallets.get(&w))
                .is_some_and(|s| s.balance >= amount)
    };
    if !(covers(c.user_wallet_id, c.user_amount_paise, wallets)
        && covers(c.partner_wallet_id, c.amount_paise, wallets))
    {
        return None;
    }
    let mut remaining = [0i64; 2];
    for (slot, (w, amount)) in [
        (c.user_wallet_id, c.user_amount_paise),
        (c.partner_wallet_id, c.amount_paise),
    ]
    .into_iter()
    .enumerate()
    {
        let Some(s) = w.and_then(|w| wallets.get_mut(&w)) else {
            continue;
        };
        if amount > 0 {
            s.balance -= amount;
            s.touched = true;
            entries.push(
                w.expect("checked"),
                "debit",
                amount,
                s.balance,
                "api_call",
                txn,
                "user",
                Some(c.user_id),
            );
        }
        remaining[slot] = s.balance;
    }
    Some(remaining)
}

/// Credits back both debits of a refunded transaction, noting the balances after it.
fn refund(
    row: &SettledRow,
    refund_wallets: &HashMap<i64, (Option<i64>, Option<i64>)>,
    wallets: &mut HashMap<i64, WalletState>,
    entries: &mut Entries,
    refunded: &mut Refunded,
) -> Result<()> {
    let (uw, pw) = refund_wallets.get(&row.id).copied().unwrap_or_default();
    let mut after = [None, None];
    for (slot, (w, amount)) in [(uw, row.user_amount_paise), (pw, row.amount_paise)]
        .into_iter()
        .enumerate()
    {
        if amount == 0 {
            continue;
        }
        let w = w.ok_or_else(|| {
            Error::Other(anyhow::anyhow!(
                "transaction {} has no wallet to refund",
                row.id
            ))
        })?;
        let st = wallets.get_mut(&w).expect("locked above");
        st.balance += amount;
        st.touched = true;
        entries.push(
            w, "credit", amount, st.balance, "refund", row.id, "system", None,
        );
        after[slot] = Some(st.balance);
    }
    if after.iter().any(Option::is_some) {
        refunded.id.push(row.id);
        refunded.user_after.push(after[0]);
        refunded.partner_after.push(after[1]);
    }
    Ok(())
}

/// Step 4: the new transactions, pending, or `success` when the charge carries its settlement.
async fn write_transactions(
    conn: &mut PgConnection,
    items: &[Item],
    txns: &[(usize, i64, i64, i64)],
) -> Result<()> {
    if txns.is_empty() {
        return Ok(());
    }
    let mut t = NewTxns::default();
    for (i, id, user_rem, partner_rem) in txns {
        let Item::Charge(c) = &items[*i] else {
            unreachable!("only charges get transaction ids")
        };
        t.id.push(*id);
        t.partner.push(c.partner_id);
        t.user.push(c.user_id);
        t.api.push(c.api_id);
        t.service.push(&c.service);
        t.pid.push(&c.pid);
        t.mode.push(c.mode);
        t.amount.push(c.amount_paise);
        t.user_amount.push(c.user_amount_paise);
        t.remaining.push(*user_rem);
        t.partner_remaining.push(*partner_rem);
        t.idempotency_key.push(c.idempotency_key.as_deref());
        t.settled.push(c.settled.is_some());
        t.key.push(c.key_id);
    }
    sqlx::query(
        "INSERT INTO api_transactions (id, partner_id, user_id, api_id, service, pid, mode, amount_paise, user_amount_paise,
                                       remaining_paise, partner_remaining_paise, idempotency_key, status, status_code, settled_at, key_id)
         OVERRIDING SYSTEM VALUE
         SELECT id, partner_id, user_id, api_id, service, pid, mode, amount, user_amount, remaining, partner_remaining, key,
                CASE WHEN settled THEN 'success' ELSE 'pending' END, CASE WHEN settled THEN 200 END,
                CASE WHEN settled THEN now() END, key_id
           FROM UNNEST($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::text[], $6::text[], $7::text[],
                       $8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[], $12::text[], $13::bool[], $14::bigint[])
                AS x(id, partner_id, user_id, api_id, service, pid, mode, amount, user_amount, remaining, partner_remaining, key, settled, key_id)",
    )
    .bind(&t.id)
    .bind(&t.partner)
    .bind(&t.user)
    .bind(&t.api)
    .bind(&t.service)
    .bind(&t.pid)
    .bind(&t.mode)
    .bind(&t.amount)
    .bind(&t.user_amount)
    .bind(&t.remaining)
    .bind(&t.partner_remaining)
    .bind(&t.idempotency_key)
    .bind(&t.settled)
    .bind(&t.key)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Step 4: the balances after each refund, on the refunded transactions.
async fn write_refunded(conn: &mut PgConnection, refunded: &Refunded) -> Result<()> {
    if refunded.id.is_empty() {
        return Ok(());
    }
    sqlx::query(
        "UPDATE api_transactions t
            SET remaining_paise = COALESCE(x.user_after, t.remaining_paise),
                partner_remaining_paise = COALESCE(x.partner_after, t.partner_remaining_paise)
           FROM UNNEST($1::bigint[], $2::bigint[], $3::bigint[]) AS x(id, user_after, partner_after)
          WHERE t.id = x.id",
    )
    .bind(&refunded.id)
    .bind(&refunded.user_after)
    .bind(&refunded.partner_after)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Step 4: the ledger entries.
async fn write_entries(conn: &mut PgConnection, entries: &Entries) -> Result<()> {
    if entries.wallet.is_empty() {
        return Ok(());
    }
    sqlx::query(
        "INSERT INTO wallet_entries (wallet_id, type, amount_paise, balance_after_paise, reason, reference, actor_kind, actor_id)
         SELECT * FROM UNNEST($1::bigint[], $2::text[], $3::bigint[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::bigint[])",
    )
    .bind(&entries.wallet)
    .bind(&entries.kind)
    .bind(&entries.amount)
    .bind(&entries.after)
    .bind(&entries.reason)
    .bind(&entries.reference)
    .bind(&entries.actor)
    .bind(&entries.actor_id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Step 4: the balances of the wallets that moved, with their low-balance flags; returns the
/// wallets that crossed their threshold downwards (an alert each).
async fn write_balances(
    conn: &mut PgConnection,
    wallets: &HashMap<i64, WalletState>,
) -> Result<Vec<LowBalance>> {
    let mut low_balances = Vec::new();
    let (mut ids, mut balances, mut alerted) = (Vec::new(), Vec::new(), Vec::new());
    for (id, s) in wallets {
        if !s.touched {
            continue;
        }
        // As in `wallets::apply`: the flag always equals "below the threshold", so one alert goes
        // out per downward crossing and a credit re-arms it.
        let below = s.threshold.is_some_and(|t| s.balance < t);
        if below && !s.alerted {
            low_balances.push(LowBalance {
                wallet_id: *id,
                partner_id: s.partner_id,
                user_id: s.user_id,
                kind: WalletKind::parse(&s.kind)?,
                balance_paise: s.balance,
                threshold_paise: s.threshold.unwrap_or_default(),
            });
        }
        ids.push(*id);
        balances.push(s.balance);
        alerted.push(below);
    }
    if !ids.is_empty() {
        sqlx::query(
            "UPDATE wallets w SET balance_paise = x.balance, low_balance_alerted = x.alerted, updated_at = now()
               FROM UNNEST($1::bigint[], $2::bigint[], $3::bool[]) AS x(id, balance, alerted) WHERE w.id = x.id",
        )
        .bind(&ids)
        .bind(&balances)
        .bind(&alerted)
        .execute(&mut *conn)
        .await?;
    }
    Ok(low_balances)
}

/// Step 4: the API log of each settlement that changed its transaction, and of each charge
/// written settled; with it, in the same statement, the answers to keep (`api_results`).
async fn write_logs(
    conn: &mut PgConnection,
    items: &[Item],
    settled: &HashMap<i64, SettledRow>,
    txns: &[(usize, i64, i64, i64)],
) -> Result<()> {
    let mut rows = LogRows::default();
    for item in items {
        let Item::Settle(s) = item else { continue };
        let (Some(log), true) = (&s.log, settled.contains_key(&s.transaction_id)) else {
            continue;
        };
        rows.push(s.transaction_id, s.status_code, log);
    }
    for (i, id, _, _) in txns {
        if let Item::Charge(Charge {
            settled: Some(log), ..
        }) = &items[*i]
        {
            rows.push(*id, 200, log);
        }
    }
    if rows.txn.is_empty() {
        return Ok(());
    }
    sqlx::query(
        "WITH x AS (
            SELECT * FROM UNNEST($1::bigint[], $2::text[], $3::text[], $4::int[], $5::text[], $6::int[], $7::bool[], $8::bytea[])
                AS x(id, vid, vpid, code, ip, latency, keep, sealed)
         ), logs AS (
            INSERT INTO api_logs (partner_id, user_id, transaction_id, service, pid, vid, vpid, status_code, amount_paise, ip, latency_ms)
            SELECT t.partner_id, t.user_id, t.id, t.service, t.pid, x.vid, x.vpid, x.code,
                   CASE WHEN t.status = 'success' THEN t.user_amount_paise ELSE 0 END, x.ip::inet, x.latency
              FROM x JOIN api_transactions t ON t.id = x.id
         )
         INSERT INTO api_results (transaction_id, user_id, sealed)
         SELECT t.id, t.user_id, x.sealed FROM x JOIN api_transactions t ON t.id = x.id WHERE x.keep
         ON CONFLICT (transaction_id) DO NOTHING",
    )
    .bind(&rows.txn)
    .bind(&rows.vid)
    .bind(&rows.vpid)
    .bind(&rows.code)
    .bind(&rows.ip)
    .bind(&rows.latency)
    .bind(&rows.keep)
    .bind(&rows.sealed)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The columns of [`write_logs`]'s rows, one vector each, for `UNNEST`.
#[derive(Default)]
struct LogRows<'a> {
    txn: Vec<i64>,
    vid: Vec<&'a str>,
    vpid: Vec<&'a str>,
    code: Vec<i32>,
    ip: Vec<Option<String>>,
    latency: Vec<i32>,
    keep: Vec<bool>,
    sealed: Vec<Option<&'a [u8]>>,
}

impl<'a> LogRows<'a> {
    fn push(&mut self, id: i64, status_code: i32, log: &'a CallLog) {
        self.txn.push(id);
        self.vid.push(&log.vid);
        self.vpid.push(&log.vpid);
        self.code.push(status_code);
        self.ip.push(log.ip.map(|i| i.to_string()));
        self.latency.push(log.latency_ms);
        self.keep.push(log.keep);
        self.sealed.push(log.sealed.as_deref());
    }
}

/// What one charging task's groups cost, for `/metrics` (per process): a group's time from its
/// first statement to its commit, and how many calls the groups carried. Where a call's time
/// goes between its checks and its answer is mostly here, twice (its charge and its
/// settlement), plus the wait for the group before it.
#[derive(Default)]
pub struct GroupStats {
    pub seconds: Histogram,
    pub calls: AtomicU64,
}

/// The two tasks' stats: `charge` (charges and refunds, which lock wallets) and `settle`
/// (successful settlements).
pub static GROUPS: LazyLock<[(&'static str, GroupStats); 2]> = LazyLock::new(|| {
    [
        ("charge", GroupStats::default()),
        ("settle", GroupStats::default()),
    ]
});

struct Request {
    item: Item,
    reply: oneshot::Sender<Result<Outcome, String>>,
}

/// The charging task of one api process; cheap to clone.
#[derive(Clone)]
pub struct Charger {
    /// Charges and refunds (they lock wallets).
    tx: mpsc::Sender<Request>,
    /// Successful settlements (no wallet moves).
    settled_tx: mpsc::Sender<Request>,
}

impl Charger {
    /// Starts the two tasks on the current runtime. They end when every `Charger` clone is dropped.
    pub fn spawn(pool: PgPool) -> Self {
        let (tx, rx) = mpsc::channel(MAX_BATCH * 16);
        let (settled_tx, settled_rx) = mpsc::channel(MAX_BATCH * 16);
        tokio::spawn(run(pool.clone(), rx, &GROUPS[0].1));
        tokio::spawn(run(pool, settled_rx, &GROUPS[1].1));
        Self { tx, settled_tx }
    }

    pub async fn charge(&self, c: Charge) -> Result<Outcome> {
        Self::submit(&self.tx, Item::Charge(c)).await
    }

    /// A successful call's settlement moves no money (it marks the transaction and writes its
    /// log), so it goes to a task of its own: its writes and its commit overlap the charges'
    /// instead of queueing behind them. A refund moves money and goes with the charges, whose
    /// task locks the wallets.
    pub async fn settle(&self, s: Settle) -> Result<Outcome> {
        let channel = if s.success {
            &self.settled_tx
        } else {
            &self.tx
        };
        Self::submit(channel, Item::Settle(s)).await
    }

    async fn submit(channel: &mpsc::Sender<Request>, item: Item) -> Result<Outcome> {
        let (reply, rx) = oneshot::channel();
        channel
            .send(Request { item, reply })
            .await
            .map_err(|_| Error::Other(anyhow::anyhow!("the charging task has stopped")))?;
        rx.await
            .map_err(|_| Error::Other(anyhow::anyhow!("the charging task dropped a call")))?
            .map_err(|e| Error::Other(anyhow::anyhow!(e)))
    }
}

async fn run(pool: PgPool, mut rx: mpsc::Receiver<Request>, stats: &'static GroupStats) {
    let mut batch: Vec<Request> = Vec::with_capacity(MAX_BATCH);
    while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
        let items: Vec<Item> = batch.iter().map(|r| r.item.clone()).collect();
        let started = Instant::now();
        let result = commit_batch(&pool, &items).await;
        stats.seconds.observe(started.elapsed());
        stats.calls.fetch_add(items.len() as u64, Ordering::Relaxed);
        match result {
            Ok(outcomes) => {
                for (r, o) in batch.drain(..).zip(outcomes) {
                    let _ = r.reply.send(Ok(o));
                }
            }
            Err(e) => {
                tracing::error!(error = %e, calls = batch.len(), "charging batch failed");
                let msg = format!("charging failed: {e}");
                for r in batch.drain(..) {
                    let _ = r.reply.send(Err(msg.clone()));
                }
            }
        }
    }
}

/// `items` on the caller's transaction `conn`, with their low-balance alerts: for a writer that
/// must commit the money with a write of its own (a batch row's state).
pub async fn apply_in(conn: &mut PgConnection, items: &[Item]) -> Result<Vec<Outcome>> {
    let applied = apply_batch(conn, items).await?;
    for low in &applied.low_balances {
        super::queue_alert(conn, low).await?;
    }
    Ok(applied.outcomes)
}

/// One batch in its own transaction, retried when Postgres picks it as a deadlock victim or a
/// serialization failure (nothing of it was written then). The low-balance alerts of the batch
/// are queued on the same transaction, as `wallets::apply` does for a single movement, so no
/// caller can move money without them.
pub async fn commit_batch(pool: &PgPool, items: &[Item]) -> Result<Vec<Outcome>> {
    let mut attempt = 0;
    loop {
        attempt += 1;
        let result = async {
            let mut tx = pool.begin().await?;
            let outcomes = apply_in(&mut tx, items).await?;
            tx.commit().await?;
            Ok::<_, Error>(outcomes)
        }
        .await;
        match result {
            Err(Error::Db(sqlx::Error::Database(d)))
                if attempt < 5 && matches!(d.code().as_deref(), Some("40P01" | "40001")) =>
            {
                tokio::time::sleep(Duration::from_millis(2 * attempt)).await;
            }
            other => return other,
        }
    }
}
