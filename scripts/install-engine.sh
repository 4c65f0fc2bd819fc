#!/bin/sh
# Install the Minetest engine (Debian's 5.6.1 packages) and the Lua checkers the engine tests need.
#
# Idempotent and quiet on success: does nothing when everything is already there. Needs root for apt-get;
# uses sudo when not root and sudo exists, else prints the command to run and exits 1.
# Facts behind the package list: shared/notes/engine.md.
set -eu

PACKAGES="minetest-server minetest minetest-mod-mobs-redo luajit lua-check"
# One file per package that proves it is installed (the server binary first: it is what the brief keys on).
NEEDED="/usr/lib/minetest/minetestserver /usr/games/minetest /usr/share/games/minetest/mods/mobs_redo/init.lua
/usr/bin/luajit /usr/bin/luacheck"

missing=""
for path in $NEEDED; do
    [ -e "$path" ] || missing="$missing $path"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "install-engine: missing:$missing" >&2
    echo "install-engine: run as root: apt-get update && apt-get install -y --no-install-recommends $PACKAGES" >&2
    exit 1
fi

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# Quiet on success, the whole apt output on failure.
if ! { $SUDO apt-get update && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        $PACKAGES; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "install-engine: apt-get failed (output above)" >&2
    exit 1
fi

for path in $NEEDED; do
    if [ ! -e "$path" ]; then
        echo "install-engine: installed $PACKAGES but $path is still missing" >&2
        exit 1
    fi
done
