#!/usr/bin/env bash
# Make this checkout runnable: a virtualenv on Python >= 3.12 holding pyproject.toml's
# dependencies (dev extras included), and the Debian packages the tests and PDFs need.
# Safe to run again and again: it does nothing when nothing changed.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=${VENV:-.venv}
STAMP="$VENV/.installed"
# Pango, HarfBuzz and a couple of fonts for WeasyPrint (and for Chromium to draw text at all).
# redis-server: the push and the cache shared by several server processes (REDIS_URL), and the
# tests and benches that start their own.
APT_PACKAGES=(libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core
  fonts-liberation redis-server)
# What only the tests use: Chromium's headless shell for the browser tests, epubcheck and a Java
# to run it for the EPUB tests (the site writes EPUBs without either), gettext for the
# catalogue tests (they run makemessages; the site compiles its catalogues with polib). Left out when the set-up
# is for running the site alone (SETUP_FOR=run, as `make run` says).
TEST_APT_PACKAGES=(chromium-headless-shell epubcheck default-jre-headless gettext)
if [ "${SETUP_FOR:-}" != run ]; then
  APT_PACKAGES+=("${TEST_APT_PACKAGES[@]}")
fi

say() { printf 'setup: %s\n' "$*" >&2; }

# Prints the interpreter back if it runs, is 3.12 or newer and can make a venv with pip.
usable() {
  "$1" -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 12))' \
    >/dev/null 2>&1 && printf '%s\n' "$1"
}

find_python() {
  local root=${PYENV_ROOT:-$HOME/.pyenv} pyenv candidate
  pyenv=$(command -v pyenv || true)
  [ -z "$pyenv" ] && [ -x "$root/bin/pyenv" ] && pyenv=$root/bin/pyenv
  # .python-version names the version pyenv should give us.
  if [ -n "$pyenv" ]; then
    candidate=$("$pyenv" which python 2>/dev/null) && usable "$candidate" && return
  fi
  # Not installed under that name (or pyenv is not on the PATH): pyenv's newest 3.12+ CPython.
  for candidate in $(ls -d "$root"/versions/3.*.* 2>/dev/null | sort -rV); do
    usable "$candidate/bin/python" && return
  done
  for candidate in python3.14 python3.13 python3.12 python3; do
    command -v "$candidate" >/dev/null 2>&1 && usable "$(command -v "$candidate")" && return
  done
  return 1
}

ensure_venv() {
  if [ -x "$VENV/bin/python" ] && usable "$VENV/bin/python" >/dev/null; then
    return
  fi
  local python
  if ! python=$(find_python); then
    say "no Python 3.12 or newer with venv and ensurepip was found."
    say "Install one (for example 'pyenv install 3.13', or your system's python3.12/3.13 with"
    say "its venv package), make it reachable as python3.13 or python3, and run this again."
    exit 1
  fi
  say "creating $VENV with $python ($("$python" -V 2>&1))"
  rm -rf "$VENV"
  "$python" -m venv "$VENV"
}

# Installs pyproject.toml's dependencies straight from its lists (the project itself is run from
# the checkout, so there is nothing to build), and only when the file or the Python changed.
ensure_packages() {
  local key
  key="$( (cat pyproject.toml; "$VENV/bin/python" -V) | sha256sum | cut -d' ' -f1)"
  if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$key" ]; then
    return
  fi
  say "installing Python packages into $VENV"
  "$VENV/bin/python" - > "$VENV/requirements.txt" <<'PY'
import tomllib

with open("pyproject.toml", "rb") as f:
    project = tomllib.load(f)["project"]
for requirement in project["dependencies"] + project["optional-dependencies"]["dev"]:
    print(requirement)
PY
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
    --requirement "$VENV/requirements.txt"
  printf '%s\n' "$key" > "$STAMP"
}

ensure_debian_packages() {
  command -v dpkg-query >/dev/null 2>&1 || return 0
  local missing=() package
  for package in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null | grep -qx installed \
      || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return
  if [ "$(id -u)" -ne 0 ]; then
    say "missing Debian packages: ${missing[*]}"
    say "install them with: sudo apt-get install ${missing[*]}"
    say "(until then the browser tests are skipped, and PDF export may fail)"
    return
  fi
  say "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
}

# The translation catalogues' .mo files (not committed), compiled with polib: no gettext needed.
compile_catalogues() {
  "$VENV/bin/python" manage.py compile_catalogues >/dev/null
}

ensure_venv
ensure_packages
ensure_debian_packages
compile_catalogues
