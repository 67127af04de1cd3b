//! `export_csv`: streams an export's rows from Postgres through the CSV writer into object
//! storage, in parts of at most `EXPORT_PART_ROWS` rows, each uploaded while it fills (S3:
//! multipart once a part outgrows one upload chunk). Memory holds one upload chunk and a few
//! write buffers, whatever the row count.
//!
//! Idempotent: part keys are deterministic, so a retry after a crash overwrites the parts of
//! the attempt before it, removes any part that attempt had beyond the new count, and writes
//! the final status once. A part whose rows stop coming (a database error, a crash) is never
//! completed: its upload ends in an error, not in a short file.

use std::{
    io,
    pin::Pin,
    task::{Context, Poll, ready},
};

use domain::{
    exports::{
        self,
        rows::{Layout, RowWriter},
    },
    infra::storage::Storage,
};
use futures::TryStreamExt;
use serde::{Deserialize, Serialize};
use tokio::{io::AsyncRead, sync::mpsc, task::JoinHandle};

use crate::{Job, JobContext, Task};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ExportCsv {
    pub export_id: i64,
}

impl Task for ExportCsv {
    const KIND: &'static str = "export_csv";
    const MAX_ATTEMPTS: usize = 5;
}

/// Bytes handed to the upload at a time.
const CHUNK_BYTES: usize = 256 * 1024;
/// Rows between two progress writes.
const PROGRESS_EVERY: u64 = 10_000;

impl Job for ExportCsv {
    async fn run(self, ctx: &JobContext) -> anyhow::Result<()> {
        match export(self.export_id, ctx).await {
            Ok(()) => Ok(()),
            Err(err) => {
                // The export's status says 'failed' only once no retry is left; until then it
                // stays running, and the next attempt starts over.
                let mut conn = ctx.pool.acquire().await?;
                if let Some(job_id) = exports::job_id(&mut conn, self.export_id).await?
                    && crate::state::is_last_attempt(&ctx.pool, &job_id).await?
                {
                    exports::fail(&mut conn, self.export_id, "The export could not be written")
                        .await?;
                }
                Err(err)
            }
        }
    }
}

async fn export(id: i64, ctx: &JobContext) -> anyhow::Result<()> {
    let mut conn = ctx.pool.acquire().await?;
    let Some(job) = exports::start(&mut conn, id).await? else {
        tracing::debug!(
            export_id = id,
            "export finished already or gone; nothing to do"
        );
        return Ok(());
    };
    let part_rows = ctx.config.exports.part_rows.max(1);
    let mut writer = RowWriter::new(Layout::of(job.kind, job.scope));
    let mut keys: Vec<String> = Vec::new();
    let mut part: Option<PartUpload> = None;
    // Parts handed over whole, still being stored (a file's fsync, S3's last chunk) while the
    // next part fills; all must succeed before the export is complete.
    let mut closing: Vec<JoinHandle<domain::Result<u64>>> = Vec::new();
    let mut n: u64 = 0;
    {
        let mut rows = exports::rows::stream(&mut conn, &job);
        while let Some(row) = rows.try_next().await? {
            let record = exports::rows::Record::from_row(&row)?;
            if part.is_none() {
                let key = job.part_key(keys.len() + 1);
                part = Some(PartUpload::start(&ctx.storage, key.clone()));
                keys.push(key);
                writer.header()?;
            }
            n += 1;
            writer.row(n, &record)?;
            let upload = part.as_mut().expect("started above");
            if writer.buffered() >= CHUNK_BYTES {
                upload.send(writer.take()?).await?;
            }
            if n.is_multiple_of(part_rows) {
                let mut done = part.take().expect("started above");
                done.send(writer.take()?).await?;
                closing.push(done.close().await?);
                exports::progress(&mut *ctx.pool.acquire().await?, id, n, keys.len()).await?;
            } else if n.is_multiple_of(PROGRESS_EVERY) {
                exports::progress(&mut *ctx.pool.acquire().await?, id, n, keys.len()).await?;
            }
        }
    }
    if let Some(mut last) = part.take() {
        last.send(writer.take()?).await?;
        closing.push(last.close().await?);
    }
    for task in closing {
        PartUpload::outcome_of(task).await?;
    }
    // An earlier attempt over more rows (the range may have grown since) left parts this one
    // did not overwrite.
    for extra in keys.len() + 1..=job.earlier_parts.max(0) as usize {
        ctx.storage.delete(&job.part_key(extra)).await?;
    }
    exports::complete(&mut conn, id, n, &keys).await?;
    tracing::info!(
        export_id = id,
        rows = n,
        parts = keys.len(),
        "export written"
    );
    Ok(())
}

enum Piece {
    Bytes(Vec<u8>),
    End,
}

/// One part being uploaded: the storage reads what [`PartUpload::send`] hands it, on a task of
/// its own, while the rows keep coming. Dropped without [`PartUpload::close`], the reader
/// fails instead of ending, so no half part is ever stored.
struct PartUpload {
    tx: mpsc::Sender<Piece>,
    task: JoinHandle<domain::Result<u64>>,
}

impl PartUpload {
    fn start(storage: &Storage, key: String) -> Self {
        // A few chunks in flight: the CSV writer runs ahead of a slow upload by at most this.
        let (tx, rx) = mpsc::channel(4);
        let storage = storage.clone();
        let task = tokio::spawn(async move {
            let mut reader = PieceReader {
                rx,
                current: Vec::new(),
                pos: 0,
                ended: false,
            };
            storage
                .put_reader(&key, &mut reader, "text/csv; charset=utf-8")
                .await
        });
        Self { tx, task }
    }

    async fn send(&mut self, bytes: Vec<u8>) -> anyhow::Result<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        if self.tx.send(Piece::Bytes(bytes)).await.is_err() {
            // The upload stopped reading: its own error says why.
            return Err(self
                .outcome()
                .await
                .err()
                .unwrap_or_else(|| anyhow::anyhow!("the upload of a part ended early")));
        }
        Ok(())
    }

    /// Marks the part whole and hands back its upload, to be awaited ([`Self::outcome_of`]).
    async fn close(self) -> anyhow::Result<JoinHandle<domain::Result<u64>>> {
        if self.tx.send(Piece::End).await.is_err() {
            return Err(Self::outcome_of(self.task)
                .await
                .err()
                .unwrap_or_else(|| anyhow::anyhow!("the upload of a part ended early")));
        }
        Ok(self.task)
    }

    async fn outcome(&mut self) -> anyhow::Result<u64> {
        match (&mut self.task).await {
            Ok(r) => Ok(r?),
            Err(e) => Err(anyhow::anyhow!("the upload task of a part: {e}")),
        }
    }

    async fn outcome_of(task: JoinHandle<domain::Result<u64>>) -> anyhow::Result<u64> {
        match task.await {
            Ok(r) => Ok(r?),
            Err(e) => Err(anyhow::anyhow!("the upload task of a part: {e}")),
        }
    }
}

/// The upload's side of a part: the chunks in order, then the end. A closed channel without
/// the end marker is an error, so a part never completes short.
struct PieceReader {
    rx: mpsc::Receiver<Piece>,
    current: Vec<u8>,
    pos: usize,
    ended: bool,
}

impl AsyncRead for PieceReader {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        loop {
            if this.pos < this.current.len() {
                let n = buf.remaining().min(this.current.len() - this.pos);
                buf.put_slice(&this.current[this.pos..this.pos + n]);
                this.pos += n;
                return Poll::Ready(Ok(()));
            }
            if this.ended {
                return Poll::Ready(Ok(()));
            }
            match ready!(this.rx.poll_recv(cx)) {
                Some(Piece::Bytes(b)) => {
                    this.current = b;
                    this.pos = 0;
                }
                Some(Piece::End) => this.ended = true,
                None => {
                    return Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "the export stopped before its part was complete",
                    )));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::AsyncReadExt;

    use super::*;

    #[tokio::test]
    async fn a_part_reads_whole_or_fails() {
        let (tx, rx) = mpsc::channel(4);
        let mut r = PieceReader {
            rx,
            current: Vec::new(),
            pos: 0,
            ended: false,
        };
        tx.send(Piece::Bytes(b"a,b\n".to_vec())).await.unwrap();
        tx.send(Piece::Bytes(b"1,2\n".to_vec())).await.unwrap();
        tx.send(Piece::End).await.unwrap();
        let mut out = Vec::new();
        r.read_to_end(&mut out).await.unwrap();
        assert_eq!(out, b"a,b\n1,2\n");

        let (tx, rx) = mpsc::channel(4);
        let mut r = PieceReader {
            rx,
            current: Vec::new(),
            pos: 0,
            ended: false,
        };
        tx.send(Piece::Bytes(b"a,b\n".to_vec())).await.unwrap();
        drop(tx);
        let mut out = Vec::new();
        assert_eq!(
            r.read_to_end(&mut out).await.unwrap_err().kind(),
            io::ErrorKind::UnexpectedEof
        );
    }
}
