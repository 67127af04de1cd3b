//! `noop`: does nothing. The queue's own probe: `bench jobs` measures the queue and the workers
//! with it (what is left is the cost of fetching, locking and acknowledging a job), and an
//! operator may queue one to see that workers take work.

use serde::{Deserialize, Serialize};

use crate::{Job, JobContext, Task};

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Noop {}

impl Task for Noop {
    const KIND: &'static str = "noop";
    const MAX_ATTEMPTS: usize = 1;
}

impl Job for Noop {
    async fn run(self, _ctx: &JobContext) -> anyhow::Result<()> {
        Ok(())
    }
}
