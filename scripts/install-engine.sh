#!/bin/sh
# Install the Minetest engine (Debian's 5.6.1 packages) and the Lua checkers the engine tests need.
#
# Idempotent and quiet on success: does nothing when everything is already there. Needs root for apt-get;
# uses sudo when not root and sudo exists, else prints the command to run and exits 1.
# With --optional (make run), a machine where it cannot install (no root, no apt-get, apt-get failing) gets one
# line saying so and exit 0: everything but the engine episodes runs without the engine.
# Facts behind the package list: shared/notes/engine.md.
set -eu

OPTIONAL=""
[ "${1:-}" = "--optional" ] && OPTIONAL=1

PACKAGES="minetest-server minetest minetest-data minetest-mod-mobs-redo luajit lua-check xvfb"
# One file per package that proves it is installed (the server binary first: it is what the brief keys on).
# xvfb: the virtual screen the client renders first-person frames on (--screenshots). minetest-data: minetest_game's
# textures and player model, which taskverse_mc copies (engine/games/taskverse_mc/textures.yaml).
NEEDED="/usr/lib/minetest/minetestserver /usr/games/minetest /usr/share/games/minetest/mods/mobs_redo/init.lua
/usr/bin/luajit /usr/bin/luacheck /usr/bin/Xvfb
/usr/share/games/minetest/games/minetest_game/mods/default/textures/default_wood.png"

missing=""
for path in $NEEDED; do
    [ -e "$path" ] || missing="$missing $path"
done
[ -z "$missing" ] && exit 0

# One line and exit 0 with --optional, else the message and exit 1.
give_up() {
    if [ -n "$OPTIONAL" ]; then
        echo "install-engine: the engine is not installed ($1); make run goes on without the engine episodes" >&2
        exit 0
    fi
    echo "install-engine: $1" >&2
    exit 1
}

if ! command -v apt-get >/dev/null 2>&1; then
    give_up "no apt-get on this machine; install Minetest 5.6 with: $PACKAGES"
fi
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1 && { [ -z "$OPTIONAL" ] || sudo -n true 2>/dev/null; }; then
    SUDO="sudo"  # make test may ask for a password; make run never waits for one
elif [ -n "$OPTIONAL" ]; then
    give_up "not root, and sudo would ask for a password; as root run: apt-get update && apt-get install -y --no-install-recommends $PACKAGES"
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
    [ -n "$OPTIONAL" ] || cat "$log" >&2
    give_up "apt-get install $PACKAGES failed: $(tail -n 1 "$log")"
fi

for path in $NEEDED; do
    [ -e "$path" ] || give_up "installed $PACKAGES but $path is still missing"
done
