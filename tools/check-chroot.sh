#!/bin/sh
# A fresh Debian installs the package with apt and runs it: debootstrap a
# minimal bookworm (from Debian's mirror: this needs the network and root),
# `apt-get install ./pescope_*.deb` inside it, which pulls the libraries the
# package declares and nothing from this machine, then `pescope --version`
# and `pescope snapshot` there. Usage: check-chroot.sh PESCOPE.deb
# [ROOT] (ROOT defaults to build-chroot/root; the bare system is kept
# between runs as build-chroot/base.tar, so a second run skips debootstrap).
# Prints "N passed, N failed" and writes summary.txt beside ROOT; exits 77
# (skipped) without root, debootstrap or the mirror.
set -u
deb=${1:?usage: check-chroot.sh PESCOPE.deb [ROOT]}
root=${2:-build-chroot/root}
base=$(dirname "$root")/base.tar
sum=$(dirname "$root")/summary.txt
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
fails=0 n=0
ok() { n=$((n + 1)); echo "ok   $*"; }
bad() { n=$((n + 1)); fails=$((fails + 1)); echo "FAIL $*"; }
finish() {
	umount "$root/proc" 2>/dev/null
	echo "chroot: $((n - fails)) passed, $fails failed"
	echo "$((n - fails)) $fails 0" >"$sum"
	[ $fails -eq 0 ]
	exit
}
skip() {
	echo "skip the chroot check: $*"
	echo "0 0 1" >"$sum"
	exit 77
}
mkdir -p "$(dirname "$root")"
[ "$(id -u)" = 0 ] || skip "it needs root (debootstrap, chroot)"
command -v debootstrap >/dev/null || skip "it needs debootstrap (apt-get install debootstrap)"
[ -f "$deb" ] || { echo "no package at $deb: run make test-pkg first"; exit 2; }
trap 'umount "$root/proc" 2>/dev/null' EXIT INT TERM
rm -rf "$root"
mkdir -p "$root"
t=$(date +%s)
if [ -f "$base" ]; then
	tar -C "$root" -xf "$base" && ok "a bare bookworm from $base"
elif debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.log" 2>&1; then
	tar -C "$root" -cf "$base" . && ok "debootstrap --variant=minbase bookworm ($(($(date +%s) - t)) s)"
else
	tail -5 "$root.log"
	skip "debootstrap could not make a system from $mirror (see $root.log)"
fi
cp "$deb" "$root/tmp/"
mount -t proc proc "$root/proc"
t=$(date +%s)
name=$(basename "$deb")
if chroot "$root" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends /tmp/$name" >"$root.apt.log" 2>&1; then
	ok "apt-get install ./$name in the fresh chroot ($(($(date +%s) - t)) s; $(grep -c '^Setting up' "$root.apt.log") packages set up)"
else
	bad "apt-get install (see $root.apt.log)"
	tail -10 "$root.apt.log"
	finish
fi
v=$(chroot "$root" pescope --version 2>&1 | tr '\n' ' ')
case $v in "pescope "*) ok "chroot: pescope --version: $v" ;; *) bad "chroot: --version: $v" ;; esac
if chroot "$root" env -i PATH=/usr/bin:/bin HOME=/root pescope snapshot -e rope --size 80x24 -f txt >"$root.snap" 2>&1 &&
    [ "$(wc -l <"$root.snap")" -eq 24 ]; then
	ok "chroot: pescope snapshot -e rope --size 80x24 -f txt: 24 lines"
else
	bad "chroot: snapshot: $(head -3 "$root.snap")"
fi
if chroot "$root" env -i PATH=/usr/bin:/bin HOME=/root pescope snapshot -e alibi -f pdf -o /tmp/a.pdf >"$root.pdf" 2>&1 &&
    head -c 5 "$root/tmp/a.pdf" | grep -q '%PDF-'; then
	ok "chroot: pescope snapshot -f pdf writes a PDF (without the recommended fonts)"
else
	bad "chroot: snapshot -f pdf: $(head -3 "$root.pdf")"
fi
finish
