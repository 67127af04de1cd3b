// `sqlx::migrate!` embeds the migrations at compile time; without this a migration added
// after the last build of this crate would be missing from every binary built since.
fn main() {
    println!("cargo:rerun-if-changed=../migrations");
}
