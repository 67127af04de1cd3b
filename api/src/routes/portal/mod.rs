//! The end-user portal on `{subdomain}.{PLATFORM_DOMAIN}`: its public description, the end
//! users' sign-in, and everything under `/me`, each path scoped by the session's user and
//! partner (`auth::UserAuth`).

mod batches;
mod history;
mod keys;
mod me;
mod profile;
mod session;
mod signup;
mod site;
mod top_up;
mod try_it;
mod usage;

use utoipa_axum::router::OpenApiRouter;

use crate::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(site::router())
        .merge(session::router())
        .merge(me::router())
        .merge(keys::router())
        .merge(try_it::router())
        .merge(history::router())
        .merge(signup::router())
        .merge(profile::router())
        .merge(usage::router())
        .merge(top_up::router())
        .merge(batches::router())
}
