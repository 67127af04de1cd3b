# Shared helpers of scripts/run and scripts/test. Sourced, not run.
# shellcheck shell=bash

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

say() { printf '\033[1;34m==>\033[0m %s\n' "$*"; }
die() { printf '\033[1;31merror:\033[0m %s\n' "$*" >&2; exit 1; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else die "need root for: $*"; fi
}

APT_UPDATED=
apt_install() {
  command -v apt-get >/dev/null || die "apt-get not found; install $* by hand"
  if [ -z "$APT_UPDATED" ]; then as_root apt-get update -qq >/dev/null; APT_UPDATED=1; fi
  say "installing $* (apt)"
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "$@" >/dev/null
}

# A Python tool in a venv of its own under .data: Debian's python refuses a system-wide pip
# install (PEP 668). Installs `package` into `venv` unless `module` imports there already.
ensure_venv_package() {
  local venv="$1" package="$2" module="$3"
  "$venv/bin/python" -c "import $module" 2>/dev/null && return 0
  say "installing $package into $venv"
  python3 -m venv "$venv" 2>/dev/null || { apt_install python3-venv; python3 -m venv "$venv"; }
  "$venv/bin/pip" install --quiet --upgrade pip
  "$venv/bin/pip" install --quiet "$package"
}

# Exports KEY=VALUE lines of a dotenv file, but never overrides what the environment sets.
load_env_file() {
  local file="$1" line key value
  [ -f "$file" ] || return 0
  while IFS= read -r line || [ -n "$line" ]; do
    line="${line%$'\r'}"
    [[ "$line" =~ ^[[:space:]]*# || ! "$line" =~ = ]] && continue
    key="${line%%=*}"; key="${key// /}"; value="${line#*=}"
    [[ "$key" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || continue
    if [[ "$value" =~ ^\"(.*)\"$ || "$value" =~ ^\'(.*)\'$ ]]; then value="${BASH_REMATCH[1]}"; fi
    if [ -z "${!key+x}" ]; then export "$key=$value"; fi
  done < "$file"
}

random_hex() { head -c "$1" /dev/urandom | od -An -tx1 | tr -d ' \n'; }

# Writes .env from .env.example with fresh secrets, once; gives an .env without a
# METRICS_TOKEN (written before there was one) a generated token.
ensure_env_file() {
  write_env_file
  ensure_metrics_token
}

# /metrics shows the platform's traffic and queue: never open by default.
ensure_metrics_token() {
  grep -qE '^METRICS_TOKEN=[^[:space:]]+' "$ROOT/.env" && return 0
  say "adding a generated METRICS_TOKEN to .env"
  local token; token="$(random_hex 32)"
  if grep -qE '^#?[[:space:]]*METRICS_TOKEN=' "$ROOT/.env"; then
    sed -i -E "s|^#?[[:space:]]*METRICS_TOKEN=.*|METRICS_TOKEN=$token|" "$ROOT/.env"
  else
    printf '\n# GET /metrics wants Authorization: Bearer <this>.\nMETRICS_TOKEN=%s\n' "$token" >> "$ROOT/.env"
  fi
}

write_env_file() {
  [ -f "$ROOT/.env" ] && return 0
  say "writing .env with fresh secrets"
  local admin_pw demo_pw
  admin_pw="Adm-$(random_hex 6)"
  demo_pw="Demo-$(random_hex 6)"
  sed -e "s|^JWT_SECRET=.*|JWT_SECRET=$(random_hex 32)|" \
      -e "s|^ENCRYPTION_KEY=.*|ENCRYPTION_KEY=$(random_hex 32)|" \
      -e "s|^LINK_SIGNING_KEY=.*|LINK_SIGNING_KEY=$(random_hex 32)|" \
      -e "s|^SUPERADMIN_PASSWORD=.*|SUPERADMIN_PASSWORD=$admin_pw|" \
      -e "s|^DEMO_PARTNER_PASSWORD=.*|DEMO_PARTNER_PASSWORD=$demo_pw|" \
      "$ROOT/.env.example" > "$ROOT/.env"
  chmod 600 "$ROOT/.env"
}

# host port user password database of a postgres:// URL, space-separated.
pg_parts() {
  local url="${1#postgres://}"; url="${url#postgresql://}"
  local creds="" hostpart="$url"
  if [[ "$url" == *@* ]]; then creds="${url%%@*}"; hostpart="${url#*@}"; fi
  local user="${creds%%:*}" pass=""
  [[ "$creds" == *:* ]] && pass="${creds#*:}"
  local hostport="${hostpart%%/*}" db="${hostpart#*/}"
  db="${db%%\?*}"
  local host="${hostport%%:*}" port=5432
  [[ "$hostport" == *:* ]] && port="${hostport#*:}"
  echo "${host:-127.0.0.1} $port ${user:-postgres} ${pass:-_} ${db:-postgres}"
}

pg_answers() { # host port
  (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null
}

# Makes sure a PostgreSQL answers at DATABASE_URL: start the local cluster, or install one.
ensure_postgres() {
  local host port user pass db
  read -r host port user pass db <<<"$(pg_parts "$DATABASE_URL")"
  pg_answers "$host" "$port" && return 0
  case "$host" in localhost|127.0.0.1|::1) ;; *) die "no PostgreSQL answers at $host:$port (DATABASE_URL)";; esac
  if ! command -v pg_ctlcluster >/dev/null || [ -z "$(ls /etc/postgresql 2>/dev/null)" ]; then
    apt_install postgresql
  fi
  local version
  version="$(ls /etc/postgresql | sort -V | tail -n1)"
  say "starting PostgreSQL $version"
  as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start 2>/dev/null || as_root pg_ctlcluster "$version" main start || true
  for _ in $(seq 1 60); do pg_answers "$host" "$port" && break; sleep 0.5; done
  pg_answers "$host" "$port" || die "PostgreSQL did not start on $host:$port"
  # A stock cluster wants a password over TCP: give the role the one DATABASE_URL names.
  if [ "$pass" != "_" ] && command -v runuser >/dev/null && id postgres >/dev/null 2>&1; then
    as_root runuser -u postgres -- psql -q -c "ALTER USER \"$user\" WITH PASSWORD '$pass'" >/dev/null 2>&1 || true
  fi
}

ensure_node() {
  command -v npm >/dev/null && return 0
  apt_install nodejs npm
}

# npm ci when package-lock.json changed since the last install.
ensure_web_deps() {
  ensure_node
  local stamp="$ROOT/web/node_modules/.installed-lock"
  if [ ! -f "$stamp" ] || ! cmp -s "$ROOT/web/package-lock.json" "$stamp"; then
    say "installing web packages (npm ci)"
    (cd "$ROOT/web" && npm ci --no-audit --no-fund --loglevel=error)
    cp "$ROOT/web/package-lock.json" "$stamp"
  fi
}

ensure_chromium() {
  command -v chromium >/dev/null && return 0
  apt_install chromium
}

ensure_rust() {
  command -v cargo >/dev/null || die "cargo not found: install Rust (https://rustup.rs) first"
}

# scripts/test checks formatting and lints; a minimal rustup profile lacks both tools.
ensure_rust_lints() {
  if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
    command -v rustup >/dev/null || die "cargo fmt and cargo clippy are needed: install rustfmt and clippy"
    rustup component add rustfmt clippy
  fi
}
