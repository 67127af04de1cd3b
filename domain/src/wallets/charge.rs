//! Grouped charging of metered calls (design.md, "The metered gateway").
//!
//! One transaction per call tops out near Postgres's commit rate on one partner's wallet, which
//! every call of every user of that partner debits. So each api process hands its charges and
//! settlements to a [`Charger`] task through a channel; the task takes what has arrived (up to
//! [`MAX_BATCH`]) and applies it as ONE statement, the SQL function `charge_group` (migrations
//! `20261130010001_charge_group`, and `20261201010001_charge_group_counts`, which has it keep the
//! list and earnings counts itself and plan by index at any table size), autocommitted: one round
//! trip per group, where a transaction of separate statements took nine, each a wait for the task
//! and the backend to be scheduled again on a loaded machine. Its steps:
//!
//! 1. settlements mark their pending transactions `success` or `refunded` (only rows still
//!    `pending` change, so a settlement is applied once however often it is sent, by the gateway
//!    or by the `settle_pending` job);
//! 2. every wallet involved is locked in id order (`FOR UPDATE`): two groups from two api
//!    processes, or a group and a single-wallet `wallets::apply`, can never wait on each other
//!    in a cycle;
//! 3. calls are decided one by one in arrival order against the locked balances: one the user's
//!    or the partner's wallet cannot cover is answered `Insufficient` and the others go on;
//! 4. transactions, ledger entries, balances and API logs are written with set-based statements
//!    (`UNNEST`), each only when it has rows, and the group commits before any caller is answered.
//!
//! A charge whose answer is known before it is made (a sandbox call: the catalogue's sample, a
//! 2xx) carries its settlement ([`Charge::settled`]): it is written `success` with its API log in
//! the same group, one write instead of two.
//!
//! The ledger entries are the record of these movements (reference `TXN{id}`); the per-movement
//! audit row of `wallets::apply` is left out here on purpose, as it would double the writes of the
//! hot path and say nothing the entry and the transaction row do not.

use std::{
    net::IpAddr,
    sync::{
        Arc, LazyLock,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use sqlx::{Connection, PgConnection, PgPool, postgres::PgConnectOptions};
use tokio::sync::{mpsc, oneshot};

use super::{LowBalance, WalletKind};
use crate::{
    Error, Result,
    infra::{db::PING_IF_IDLE_FOR, metrics::Histogram},
};

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
    /// The server incarnation the charge was made under ([`Outcome::Charged`]), when it came
    /// from a charging task; `None` for a transaction read back from the database.
    pub charged_under: Option<Incarnation>,
}

/// Which life of the Postgres server a charging task's group ran in (`server_incarnation()`,
/// migration `20261203010001`): it changes with every start and every crash recovery. A live
/// charge commits without waiting for its WAL flush, so a crash can lose it and hand its id to
/// a later call; a settlement is therefore applied only under the incarnation its charge was
/// made under, and otherwise left to `settle_pending`.
pub type Incarnation = Arc<str>;

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
        /// Set by a charging task ([`Charger`]); its settlement carries it back.
        under: Option<Incarnation>,
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

/// What a group did besides its outcomes: wallets that crossed their low-balance threshold (an
/// alert each, queued in the group's transaction by [`apply_in`]).
struct Applied {
    outcomes: Vec<Outcome>,
    low_balances: Vec<LowBalance>,
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
          WHERE status = 'pending' AND settled_at IS NULL AND created_at < now() - $1 * interval '1 second'
          ORDER BY created_at LIMIT $2",
    )
    .bind(older_than.as_secs_f64())
    .bind(limit as i64)
    .fetch_all(pool)
    .await?)
}

/// The ledger reference of a gateway transaction's entries. `charge_group` writes it with the
/// SQL function `txn_reference`, which must say the same (tested).
pub fn reference(transaction_id: i64) -> String {
    format!("TXN{transaction_id:08}")
}

/// SQLSTATE of `charge_group` when a wallet crosses its low-balance threshold and the caller asked
/// it to stop there: nothing was written, and the group must be applied again in a transaction
/// that can queue the alerts.
const LOW_BALANCE_CROSSED: &str = "KY001";

/// SQLSTATE of `charge_group_unflushed` when the server's incarnation is not the one the group
/// named: the server restarted or recovered from a crash under a connection that survived it
/// (through PgBouncer), and nothing was written.
const INCARNATION_CHANGED: &str = "KY002";

/// The group's items as `charge_group`'s parallel arrays (one element per item, in arrival
/// order; a settlement's charge fields and a charge's settlement fields are NULL).
#[derive(Default)]
struct Columns<'a> {
    is_charge: Vec<bool>,
    partner: Vec<Option<i64>>,
    user: Vec<Option<i64>>,
    api: Vec<Option<i64>>,
    service: Vec<Option<&'a str>>,
    pid: Vec<Option<&'a str>>,
    mode: Vec<Option<&'a str>>,
    amount: Vec<Option<i64>>,
    user_amount: Vec<Option<i64>>,
    user_wallet: Vec<Option<i64>>,
    partner_wallet: Vec<Option<i64>>,
    idempotency_key: Vec<Option<&'a str>>,
    key: Vec<Option<i64>>,
    txn: Vec<Option<i64>>,
    ok: Vec<Option<bool>>,
    code: Vec<Option<i32>>,
    has_log: Vec<bool>,
    vid: Vec<Option<&'a str>>,
    vpid: Vec<Option<&'a str>>,
    ip: Vec<Option<String>>,
    latency: Vec<Option<i32>>,
    keep: Vec<Option<bool>>,
    sealed: Vec<Option<&'a [u8]>>,
}

impl<'a> Columns<'a> {
    fn of(items: &'a [Item]) -> Self {
        let mut c = Self::default();
        for item in items {
            // Each item fills its own side's columns; the other side's are NULL.
            let (ch, st) = match item {
                Item::Charge(ch) => (Some(ch), None),
                Item::Settle(st) => (None, Some(st)),
            };
            c.is_charge.push(ch.is_some());
            c.partner.push(ch.map(|ch| ch.partner_id));
            c.user.push(ch.map(|ch| ch.user_id));
            c.api.push(ch.map(|ch| ch.api_id));
            c.service.push(ch.map(|ch| ch.service.as_str()));
            c.pid.push(ch.map(|ch| ch.pid.as_str()));
            c.mode.push(ch.map(|ch| ch.mode));
            c.amount.push(ch.map(|ch| ch.amount_paise));
            c.user_amount.push(ch.map(|ch| ch.user_amount_paise));
            c.user_wallet.push(ch.and_then(|ch| ch.user_wallet_id));
            c.partner_wallet
                .push(ch.and_then(|ch| ch.partner_wallet_id));
            c.idempotency_key
                .push(ch.and_then(|ch| ch.idempotency_key.as_deref()));
            c.key.push(ch.and_then(|ch| ch.key_id));
            c.txn.push(st.map(|st| st.transaction_id));
            c.ok.push(st.map(|st| st.success));
            c.code.push(st.map(|st| st.status_code));
            // A charge's log is its settlement carried along (a sandbox call); a settlement's
            // is the call's answer.
            let log = ch
                .and_then(|ch| ch.settled.as_ref())
                .or(st.and_then(|st| st.log.as_ref()));
            c.has_log.push(log.is_some());
            c.vid.push(log.map(|l| l.vid.as_str()));
            c.vpid.push(log.map(|l| l.vpid.as_str()));
            c.ip.push(log.and_then(|l| l.ip).map(|ip| ip.to_string()));
            c.latency.push(log.map(|l| l.latency_ms));
            c.keep.push(log.map(|l| l.keep));
            c.sealed.push(log.and_then(|l| l.sealed.as_deref()));
        }
        c
    }
}

/// One row of `charge_group`: an item's outcome (`o_idx` set), or a wallet that crossed its
/// low-balance threshold (`o_outcome` = `low`).
#[derive(sqlx::FromRow)]
struct GroupRow {
    o_idx: Option<i32>,
    o_outcome: String,
    o_txn: Option<i64>,
    o_user_remaining: Option<i64>,
    o_partner_remaining: Option<i64>,
    o_wallet: Option<i64>,
    o_partner: Option<i64>,
    o_user: Option<i64>,
    o_kind: Option<String>,
    o_balance: Option<i64>,
    o_threshold: Option<i64>,
}

/// How a group is sent: inside a caller's transaction, as `charge_group` itself; or as a
/// transaction of its own, through `charge_group_unflushed` (migration `20261203010001`), which
/// commits a group of live charges alone without waiting for the WAL flush and refuses the group
/// if the server is not in the incarnation named (`None` checks nothing). The latter must never
/// run inside a caller's transaction that commits: its lazy commit would be the caller's (the
/// connection's [`warm_up`] runs it inside one it rolls back, where nothing is committed).
#[derive(Clone, Copy)]
enum Via<'a> {
    CallersTransaction,
    OwnTransaction { expected: Option<&'a str> },
}

/// Applies `items` in arrival order with one statement (`charge_group`, migration
/// `20261130010001`; its steps are the module doc's). On a pool it commits by itself; on a
/// transaction the caller commits. With `abort_on_alert`, a group in which a wallet crosses its
/// low-balance threshold fails with [`LOW_BALANCE_CROSSED`] and writes nothing.
async fn apply_batch<'e, E>(
    conn: E,
    items: &[Item],
    abort_on_alert: bool,
    via: Via<'_>,
) -> Result<Applied>
where
    E: sqlx::PgExecutor<'e>,
{
    let c = Columns::of(items);
    let sql = match via {
        Via::CallersTransaction => {
            "SELECT * FROM charge_group($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
                                        $17, $18, $19, $20, $21, $22, $23, $24)"
        }
        Via::OwnTransaction { .. } => {
            "SELECT * FROM charge_group_unflushed($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,
                                                  $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25)"
        }
    };
    let mut query = sqlx::query_as(sql)
        .bind(&c.is_charge)
        .bind(&c.partner)
        .bind(&c.user)
        .bind(&c.api)
        .bind(&c.service)
        .bind(&c.pid)
        .bind(&c.mode)
        .bind(&c.amount)
        .bind(&c.user_amount)
        .bind(&c.user_wallet)
        .bind(&c.partner_wallet)
        .bind(&c.idempotency_key)
        .bind(&c.key)
        .bind(&c.txn)
        .bind(&c.ok)
        .bind(&c.code)
        .bind(&c.has_log)
        .bind(&c.vid)
        .bind(&c.vpid)
        .bind(&c.ip)
        .bind(&c.latency)
        .bind(&c.keep)
        .bind(&c.sealed)
        .bind(abort_on_alert);
    if let Via::OwnTransaction { expected } = via {
        query = query.bind(expected);
    }
    let rows: Vec<GroupRow> = query.fetch_all(conn).await?;
    let mut outcomes: Vec<Option<Outcome>> = vec![None; items.len()];
    let mut low_balances = Vec::new();
    for r in rows {
        let missing = || {
            Error::Other(anyhow::anyhow!(
                "charge_group: {} row incomplete",
                r.o_outcome
            ))
        };
        let outcome = match r.o_outcome.as_str() {
            "low" => {
                low_balances.push(LowBalance {
                    wallet_id: r.o_wallet.ok_or_else(missing)?,
                    partner_id: r.o_partner.ok_or_else(missing)?,
                    user_id: r.o_user,
                    kind: WalletKind::parse(r.o_kind.as_deref().ok_or_else(missing)?)?,
                    balance_paise: r.o_balance.ok_or_else(missing)?,
                    threshold_paise: r.o_threshold.ok_or_else(missing)?,
                });
                continue;
            }
            "charged" => Outcome::Charged {
                transaction_id: r.o_txn.ok_or_else(missing)?,
                user_remaining_paise: r.o_user_remaining.ok_or_else(missing)?,
                partner_remaining_paise: r.o_partner_remaining.ok_or_else(missing)?,
                under: None,
            },
            "insufficient" => Outcome::Insufficient,
            "duplicate" => Outcome::Duplicate {
                transaction_id: r.o_txn.ok_or_else(missing)?,
            },
            "settled" => Outcome::Settled { refunded: false },
            "refunded" => Outcome::Settled { refunded: true },
            "already_settled" => Outcome::AlreadySettled,
            other => {
                return Err(Error::Other(anyhow::anyhow!(
                    "charge_group: unknown outcome {other}"
                )));
            }
        };
        let slot = r
            .o_idx
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| outcomes.get_mut(i.wrapping_sub(1)))
            .ok_or_else(missing)?;
        *slot = Some(outcome);
    }
    Ok(Applied {
        outcomes: outcomes
            .into_iter()
            .map(|o| {
                o.ok_or_else(|| {
                    Error::Other(anyhow::anyhow!("charge_group: an item without outcome"))
                })
            })
            .collect::<Result<_>>()?,
        low_balances,
    })
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
    /// Starts the two tasks, each on a thread and runtime of its own (see [`run_on_own_thread`]).
    /// They end when every `Charger` clone is dropped.
    pub fn spawn(pool: PgPool) -> Self {
        let (tx, rx) = mpsc::channel(MAX_BATCH * 16);
        let (settled_tx, settled_rx) = mpsc::channel(MAX_BATCH * 16);
        let options = pool.connect_options();
        run_on_own_thread("kyc-charger", options.clone(), rx, &GROUPS[0].1);
        run_on_own_thread("kyc-settler", options, settled_rx, &GROUPS[1].1);
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

/// Runs a charging task on a thread with a single-threaded runtime of its own, and its own
/// connection made there. On the api's runtime every wake-up of the task (a group's answer
/// arriving, the next calls queued) waited behind the request tasks ready at that moment; here it
/// never does, and the operating system shares the cores between it and the api's threads
/// (`gateway-latency` at 2,900 calls/s: p99 18 to 21 ms on the api's runtime, 12 to 13 ms here).
/// A process that cannot start the thread or its runtime stops at startup: without its charging
/// tasks it would look alive and answer every metered call with an error.
fn run_on_own_thread(
    name: &str,
    options: Arc<PgConnectOptions>,
    rx: mpsc::Receiver<Request>,
    stats: &'static GroupStats,
) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("starting a charging task's runtime");
    std::thread::Builder::new()
        .name(name.into())
        .spawn(move || rt.block_on(run(&options, rx, stats)))
        .expect("starting a charging task's thread");
}

async fn run(
    options: &PgConnectOptions,
    mut rx: mpsc::Receiver<Request>,
    stats: &'static GroupStats,
) {
    let mut batch: Vec<Request> = Vec::with_capacity(MAX_BATCH);
    // Connected at once, not by the first calls: a process starts taking calls with its charging
    // connections ready. One that fails now is connected again by the first group.
    let mut held = connect(options).await.ok();
    while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
        let items: Vec<Item> = batch.iter().map(|r| r.item.clone()).collect();
        let started = Instant::now();
        let result = commit_held(options, &mut held, &items).await;
        stats.seconds.observe(started.elapsed());
        stats.calls.fetch_add(items.len() as u64, Ordering::Relaxed);
        match result {
            Ok(outcomes) => {
                for (r, o) in batch.drain(..).zip(outcomes) {
                    let _ = r.reply.send(o);
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

/// A charging task's own connection: when it was last used, and the server incarnation its
/// groups name (read when it connected, and again whenever a group finds it changed).
struct Held {
    conn: PgConnection,
    used: Instant,
    incarnation: Incarnation,
}

/// Longest wait for a charging task's connection to Postgres.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Why a settlement was not applied: its charge was made under another incarnation of the server.
const CHARGED_BEFORE_RESTART: &str =
    "the call was charged before Postgres restarted; its transaction is left to settle_pending";

/// [`commit_batch`] on the task's own connection, kept from group to group: a connection taken
/// from a pool for each group goes back with a ping (sqlx tests every released connection), one
/// more round trip and task wake-up per group on the hot path. As the pool does, a connection
/// idle for a while is pinged before use; one that failed is closed and the next group connects
/// again, so a database that went away and came back is used again without a restart.
///
/// Each item gets its own answer: a settlement whose charge was made under another incarnation
/// of the server is not sent (its id may since have gone to another call, see [`Incarnation`]).
/// A group refused because the incarnation changed under the connection is sent again, once the
/// new one is read, without the settlements it makes stale.
async fn commit_held(
    options: &PgConnectOptions,
    held: &mut Option<Held>,
    items: &[Item],
) -> Result<Vec<std::result::Result<Outcome, String>>> {
    if let Some(h) = held.as_mut()
        && h.used.elapsed() >= PING_IF_IDLE_FOR
        && h.conn.ping().await.is_err()
    {
        *held = None;
    }
    let h = match held {
        Some(h) => h,
        None => held.insert(connect(options).await?),
    };
    let mut attempt = 0;
    let result = loop {
        attempt += 1;
        let stale = |item: &Item| {
            matches!(item, Item::Settle(Settle { charged_under: Some(under), .. })
                if *under != h.incarnation)
        };
        // Copied only in the rare group that holds a stale settlement.
        let send: std::borrow::Cow<[Item]> = if items.iter().any(stale) {
            items.iter().filter(|i| !stale(i)).cloned().collect()
        } else {
            items.into()
        };
        let applied = if send.is_empty() {
            Ok(vec![])
        } else {
            commit_on(&mut h.conn, &send, Some(&h.incarnation)).await
        };
        match applied {
            Err(Error::Db(sqlx::Error::Database(d)))
                if attempt < 3 && d.code().as_deref() == Some(INCARNATION_CHANGED) =>
            {
                match read_incarnation(&mut h.conn).await {
                    Ok(now) => {
                        tracing::warn!(was = %h.incarnation, now = %now, "Postgres restarted under a charging connection");
                        h.incarnation = now;
                    }
                    Err(e) => break Err(e),
                }
            }
            Err(e) => break Err(e),
            Ok(outcomes) => {
                let mut outcomes = outcomes.into_iter();
                break Ok(items
                    .iter()
                    .map(|item| {
                        if stale(item) {
                            return Err(CHARGED_BEFORE_RESTART.to_string());
                        }
                        let mut outcome = outcomes
                            .next()
                            .ok_or("charge_group: an item without outcome")?;
                        if let Outcome::Charged { under, .. } = &mut outcome {
                            *under = Some(h.incarnation.clone());
                        }
                        Ok(outcome)
                    })
                    .collect());
            }
        }
    };
    h.used = Instant::now();
    if result.is_err() {
        *held = None;
    }
    result
}

async fn read_incarnation(conn: &mut PgConnection) -> Result<Incarnation> {
    let now: String = sqlx::query_scalar("SELECT server_incarnation()")
        .fetch_one(conn)
        .await?;
    Ok(now.into())
}

/// A charging task's own connection, with TCP_NODELAY and the server incarnation it found,
/// warmed by [`warm_up`] before a call waits for it.
async fn connect(options: &PgConnectOptions) -> Result<Held> {
    let mut conn = tokio::time::timeout(CONNECT_TIMEOUT, PgConnection::connect_with(options))
        .await
        .map_err(|_| sqlx::Error::PoolTimedOut)??;
    crate::infra::nodelay::apply(options.get_port());
    let incarnation = read_incarnation(&mut conn).await?;
    warm_up(&mut conn, &incarnation).await?;
    Ok(Held {
        conn,
        used: Instant::now(),
        incarnation,
    })
}

/// Plans most of `charge_group`'s statements on a new charging connection before a call waits
/// for them. A backend plans each statement of the function, and each foreign key's check, the
/// first time it runs it, and reads the tables' catalogue entries then: a fresh api process's
/// first call waited 6.6 to 7.8 ms for its charging group and 6.3 to 7.6 ms for its settling
/// group on this machine, about 2 ms each once warm, while the calls behind it piled up.
///
/// One group of a settlement of transaction 0, which cannot exist as ids start at 1 (its
/// statement is planned and changes nothing), and a free call charged and settled at once on the
/// newest end user (the transaction, its log and kept answer, the list counts and the
/// earnings, each with its foreign-key checks), in a transaction rolled back at once: nothing of
/// it stays but a transaction id never used. No wallet is locked, and the counters are locked
/// in the order every group takes them, so the warm-up cannot deadlock with a group of another
/// process; it holds them only to its rollback. Left for the first real group: the wallet's lock,
/// debit and entries, and a refund's statements. A platform with no end user or no API yet gets
/// the settlement alone.
async fn warm_up(conn: &mut PgConnection, incarnation: &str) -> Result<()> {
    let via = Via::OwnTransaction {
        expected: Some(incarnation),
    };
    let nothing = Item::Settle(Settle {
        transaction_id: 0,
        success: false,
        status_code: 0,
        log: None,
        charged_under: None,
    });
    let sample: Option<(i64, i64, i64, String)> = sqlx::query_as(
        "SELECT u.partner_id, u.id, c.id, c.service
           FROM (SELECT partner_id, id FROM end_users ORDER BY id DESC LIMIT 1) u,
                (SELECT id, service FROM api_catalogue ORDER BY id LIMIT 1) c",
    )
    .fetch_optional(&mut *conn)
    .await?;
    let Some((partner_id, user_id, api_id, service)) = sample else {
        apply_batch(&mut *conn, &[nothing], true, via).await?;
        return Ok(());
    };
    let free_call = Item::Charge(Charge {
        partner_id,
        user_id,
        api_id,
        service,
        pid: "warm-up".into(),
        mode: "live",
        amount_paise: 0,
        user_amount_paise: 0,
        user_wallet_id: None,
        partner_wallet_id: None,
        idempotency_key: None,
        settled: Some(CallLog {
            vid: "warm-up".into(),
            vpid: String::new(),
            ip: None,
            latency_ms: 0,
            keep: true,
            sealed: Some(Vec::new()),
        }),
        key_id: None,
    });
    let warmed = async {
        let mut tx = conn.begin().await?;
        apply_batch(&mut *tx, &[nothing.clone(), free_call], false, via).await?;
        tx.rollback().await?;
        Ok::<_, Error>(())
    }
    .await;
    if let Err(e) = warmed {
        // Only time is lost; a connection whose warm-up failed still serves (a transaction left
        // open is rolled back before its next statement). The settlement alone still compiles
        // the functions, and fails the connection as any statement would.
        tracing::warn!(error = %e, "the charging connection's warm-up failed");
        apply_batch(&mut *conn, &[nothing], true, via).await?;
    }
    Ok(())
}

/// `items` on the caller's transaction `conn`, with their low-balance alerts: for a writer that
/// must commit the money with a write of its own (a batch row's state).
pub async fn apply_in(conn: &mut PgConnection, items: &[Item]) -> Result<Vec<Outcome>> {
    apply_with_alerts(conn, items, Via::CallersTransaction).await
}

async fn apply_with_alerts(
    conn: &mut PgConnection,
    items: &[Item],
    via: Via<'_>,
) -> Result<Vec<Outcome>> {
    let applied = apply_batch(&mut *conn, items, false, via).await?;
    for low in &applied.low_balances {
        super::queue_alert(conn, low).await?;
    }
    Ok(applied.outcomes)
}

/// One group, committed, retried when Postgres picks it as a deadlock victim or a serialization
/// failure (nothing of it was written then). A group is one autocommitted statement; the rare
/// group in which a wallet crosses its low-balance threshold is applied again in a transaction
/// that also queues the alerts, as `wallets::apply` does for a single movement, so no caller can
/// move money without them.
pub async fn commit_batch(pool: &PgPool, items: &[Item]) -> Result<Vec<Outcome>> {
    commit_on(&mut *pool.acquire().await?, items, None).await
}

/// [`commit_batch`] on `conn`, which holds no transaction, in the server incarnation `expected`
/// when it is named.
async fn commit_on(
    conn: &mut PgConnection,
    items: &[Item],
    expected: Option<&str>,
) -> Result<Vec<Outcome>> {
    let via = Via::OwnTransaction { expected };
    let mut attempt = 0;
    loop {
        attempt += 1;
        let result = async {
            match apply_batch(&mut *conn, items, true, via).await {
                Err(Error::Db(sqlx::Error::Database(d)))
                    if d.code().as_deref() == Some(LOW_BALANCE_CROSSED) =>
                {
                    let mut tx = conn.begin().await?;
                    let outcomes = apply_with_alerts(&mut tx, items, via).await?;
                    tx.commit().await?;
                    Ok(outcomes)
                }
                other => other.map(|a| a.outcomes),
            }
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
