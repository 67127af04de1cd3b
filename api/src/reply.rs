//! The body of a success that only has something to say.

use serde::Serialize;

use crate::extract::Json;

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Message {
    pub message: String,
}

pub fn message(m: &str) -> Json<Message> {
    Json(Message {
        message: m.to_owned(),
    })
}
