# Shared helpers for the scripts in this folder. Source it; do not run it.

# Runs a command as root: directly when we are root, else through sudo.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# Installs the Debian packages given that are not installed yet (apt-get update once, first).
ensure_apt_packages() {
  local missing=()
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "==> installing Debian packages: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Fails with a clear message when Swift 6 is not on the PATH.
require_swift() {
  if ! command -v swift >/dev/null 2>&1; then
    echo "error: swift is not on the PATH; install Swift 6 (https://www.swift.org/install/linux/) first" >&2
    exit 1
  fi
}

# Starts Debian's PostgreSQL on loopback (the newest version installed; its cluster made when there
# is none) and makes the role the tests use, `playground` (may create databases; its password is
# the tests' own, on loopback only). Idempotent.
start_postgres() {
  local version
  version=$(ls /usr/lib/postgresql | sort -n | tail -1)
  if ! pg_lsclusters -h 2>/dev/null | grep -q "^$version "; then
    as_root pg_createcluster "$version" main >/dev/null
  fi
  if ! pg_lsclusters -h | grep -q "^$version main .* online"; then
    as_root pg_ctlcluster "$version" main start
  fi
  pg_isready -h 127.0.0.1 -p 5432  # pg_ctlcluster waits for the server to accept connections
  as_root runuser -u postgres -- psql -qX -c "DO \$\$ BEGIN
      IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'playground') THEN
        CREATE ROLE playground LOGIN CREATEDB;
      END IF;
      ALTER ROLE playground PASSWORD 'store-test-secret';
    END \$\$;"
}
