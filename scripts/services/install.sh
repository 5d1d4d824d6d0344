#!/usr/bin/env bash
# Installs what the real-service mode needs and is missing (idempotent, ≈ 3 s when nothing is):
# Debian's PostgreSQL (the helm plugin's database), etcd-server (the apiserver's store) and the
# en_US.UTF-8 locale PostgreSQL collates under by default (Debian ships it ungenerated).
# Used by `node server/main.mjs --backend real`, tests/real/ and the network benchmark.
set -euo pipefail
log() { printf '== [services] %s\n' "$*"; }
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"

missing=()
for p in postgresql etcd-server locales; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  log "apt-get install ${missing[*]}"
  $SUDO apt-get update -qq
  # The packages' own services stay stopped: the project starts its own, in temporary folders.
  DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# glibc's en_US.UTF-8 (listed by `locale -a` as en_US.utf8).
if ! locale -a 2>/dev/null | grep -qix 'en_US.utf-\?8'; then
  log "locale-gen en_US.UTF-8"
  $SUDO sed -i 's/^# *\(en_US.UTF-8 UTF-8\)/\1/' /etc/locale.gen
  grep -q '^en_US.UTF-8 UTF-8' /etc/locale.gen || echo 'en_US.UTF-8 UTF-8' | $SUDO tee -a /etc/locale.gen >/dev/null
  $SUDO locale-gen >/dev/null
fi

# Debian starts a cluster and an etcd of its own on install: the project never uses them.
for unit in etcd postgresql; do
  if command -v systemctl >/dev/null && systemctl is-active --quiet "$unit" 2>/dev/null; then $SUDO systemctl stop "$unit" || true; fi
done
