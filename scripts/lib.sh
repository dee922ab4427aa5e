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
