//! The end-user portal on a partner's sub-domain: what the public site shows (`site`), and the
//! signed-in end user (`account`). The gateway's rules, keys, prices and lists are their own
//! modules'; the portal only scopes them to the user of the session.

pub mod account;
pub mod site;
pub mod top_up;
pub mod usage;

pub use account::{
    Principal, Profile, ProfileChange, ResetTarget, principal, profile, reset_target,
};
pub use site::{SignupSettings, Site, signup_settings, site};
