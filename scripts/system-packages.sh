#!/usr/bin/env bash
# The Debian packages the tests need, checked the same way by .ci/run and by `npm test` (scripts/test-all.ts).
#
#   scripts/system-packages.sh missing   prints the missing packages, one per line (nothing when all are there)
#   scripts/system-packages.sh install   as root: installs the missing ones (apt-get); otherwise prints the
#                                        command to run and exits 3. Exit 0 when nothing is missing afterwards.
#
# What each package is for, and what runs without it:
#   chromium-headless-shell  the end-to-end tests' browser (lighter per page than the full browser, which they
#                            fall back to, more slowly, when only `chromium` is there)
#   chromium                 the screenshot and Lighthouse scripts; the end-to-end tests' fallback
#   postgresql               the API tests on a real PostgreSQL server and through the Neon driver
#   poppler-utils            pdftoppm, pdfinfo and pdftotext, to read the generated brochure
set -uo pipefail

missing=()
if [ -z "${CHROMIUM_PATH:-}" ]; then
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  [ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
fi
if [ -z "${PG_BIN:-}" ] && ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
  missing+=(postgresql)
fi
command -v pdftoppm >/dev/null || missing+=(poppler-utils)

case "${1:-missing}" in
  missing)
    [ ${#missing[@]} -eq 0 ] || printf '%s\n' "${missing[@]}"
    ;;
  install)
    [ ${#missing[@]} -eq 0 ] && exit 0
    if [ "$(id -u)" != 0 ]; then
      echo "Missing system packages: ${missing[*]}. Install them with:" >&2
      echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
      exit 3
    fi
    echo "Installing system packages: ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    # Another apt-get (a second run of this script, unattended upgrades) may hold the lock for a while.
    apt-get -o DPkg::Lock::Timeout=300 update -qq &&
      apt-get -o DPkg::Lock::Timeout=300 install -y -qq "${missing[@]}" >/dev/null
    ;;
  *)
    echo "usage: $0 missing|install" >&2
    exit 2
    ;;
esac
