#!/bin/sh
# What a user installs, checked as a user gets it (make test runs this once,
# after the two builds' suites):
#  1. `meson dist` makes the release tarball from the committed tree;
#  2. the tarball, unpacked where no git can be seen, configures, builds and
#     passes a subset of its tests ($PKG_TESTS; all of them with
#     PKG_TESTS=all);
#  3. dpkg-buildpackage -b builds the Debian package from the unpacked
#     tarball (nocheck: the suite already ran in this tree);
#  4. the .deb, unpacked into a scratch root with dpkg -x, runs from there:
#     --version, a snapshot, its man page and its bash completion;
#  5. lintian finds no error and no warning (debian/pescope.lintian-overrides
#     says why for each tag it silences).
# Usage: check_package.sh BUILD OUT (BUILD: a configured meson build of this
# tree; OUT: a folder for the work, emptied first). Prints "N passed, N
# failed" and writes OUT/summary.txt as tools/run-tests.sh does.
set -u
build=${1:?usage: check_package.sh BUILD OUT}
out=${2:?usage: check_package.sh BUILD OUT}
src=$(cd "$(dirname "$0")/.." && pwd -P)
: "${PKG_TESTS:=unit cli golden docs version numpy}"
fails=0 n=0
ok() { n=$((n + 1)); echo "ok   $*"; }
bad() { n=$((n + 1)); fails=$((fails + 1)); echo "FAIL $*"; }
now() { date +%s; }
took() { echo "     ($(($(now) - $1)) s)"; }
finish() {
	echo "package: $((n - fails)) passed, $fails failed"
	echo "$((n - fails)) $fails 0" >"$out/summary.txt"
	[ $fails -eq 0 ]
	exit
}
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd -P)
version=$(meson introspect --projectinfo "$build" | python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])')

# 1. the tarball, from what is committed (--allow-dirty: while developing,
# uncommitted changes are left out, and meson says so)
t=$(now)
if meson dist -C "$build" --no-tests --allow-dirty --formats xztar >"$out/dist.log" 2>&1; then
	tarball=$build/meson-dist/pescope-$version.tar.xz
	ok "meson dist: $(basename "$tarball"), $(du -k "$tarball" | cut -f1) KiB"
else
	bad "meson dist (see $out/dist.log)"
	cat "$out/dist.log"
	finish
fi
took "$t"
mkdir "$out/dist" && tar -C "$out/dist" -xJf "$tarball"
tree=$out/dist/pescope-$version
[ -f "$tree/.pescope-commit" ] && ok "the tarball records its commit $(cut -c1-12 "$tree/.pescope-commit")" ||
    bad "the tarball has no .pescope-commit"
for f in LICENSE NEWS CITATION.cff README.md debian/control meson.build; do
	[ -f "$tree/$f" ] || bad "the tarball lacks $f"
done

# 2. the tarball builds and passes its tests, with no git above it
t=$(now)
export GIT_CEILING_DIRECTORIES=$out
if meson setup "$out/dist-build" "$tree" --buildtype=debugoptimized >"$out/dist-build.log" 2>&1 &&
    ninja -C "$out/dist-build" >>"$out/dist-build.log" 2>&1; then
	ok "the tarball configures and builds"
else
	bad "the tarball's build (see $out/dist-build.log)"
	tail -30 "$out/dist-build.log"
	finish
fi
took "$t"
t=$(now)
# meson test takes suites or names, not both at once: a run for each
suites= names=
if [ "$PKG_TESTS" != all ]; then
	for s in $PKG_TESTS; do
		case $s in unit | e2e) suites="$suites --suite $s" ;; *) names="$names $s" ;; esac
	done
fi
: >"$out/dist-test.log"
rc=0
if [ "$PKG_TESTS" = all ] || [ -n "$suites" ]; then
	# shellcheck disable=SC2086
	meson test -C "$out/dist-build" --num-processes 2 --print-errorlogs $suites \
	    >>"$out/dist-test.log" 2>&1 || rc=1
fi
if [ -n "$names" ]; then
	# shellcheck disable=SC2086
	meson test -C "$out/dist-build" --num-processes 2 --print-errorlogs $names \
	    >>"$out/dist-test.log" 2>&1 || rc=1
fi
count=$(grep -c '^ *[0-9]*/[0-9]* .* OK ' "$out/dist-test.log")
if [ $rc -eq 0 ] && [ "$count" -gt 0 ]; then
	ok "the tarball's tests pass: $count of them ($PKG_TESTS)"
else
	bad "the tarball's tests: $count passed (see $out/dist-test.log)"
	grep -E "FAIL|TIMEOUT|ERROR|No suitable" "$out/dist-test.log" | head -20
fi
took "$t"
v=$("$out/dist-build/pescope" --version | sed -n 2p)
[ "$v" = "commit $(cut -c1-12 "$tree/.pescope-commit") (from a release tarball)" ] &&
    ok "the tarball's --version: $v" || bad "the tarball's --version: $v"

# 3. the Debian package, from a copy of the unpacked tarball
t=$(now)
mkdir "$out/deb" && cp -a "$tree" "$out/deb/"
if (cd "$out/deb/pescope-$version" &&
    DEB_BUILD_OPTIONS="nocheck parallel=2" dpkg-buildpackage -b -us -uc -Pnocheck) >"$out/deb.log" 2>&1; then
	deb=$(ls "$out"/deb/pescope_"$version"_*.deb)
	ok "dpkg-buildpackage -b: $(basename "$deb"), $(du -k "$deb" | cut -f1) KiB"
else
	bad "dpkg-buildpackage (see $out/deb.log)"
	tail -30 "$out/deb.log"
	finish
fi
took "$t"
warn=$(grep -E "warning:" "$out/deb.log" | grep -v "^dpkg-" || true)
[ -z "$warn" ] && ok "the package's build: no compiler warning" || bad "the package's build warns: $warn"
dpkg-deb -c "$deb" >"$out/contents"
for f in ./usr/bin/pescope ./usr/share/man/man1/pescope.1.gz \
    ./usr/share/bash-completion/completions/pescope \
    ./usr/share/zsh/vendor-completions/_pescope \
    ./usr/share/doc/pescope/copyright ./usr/share/doc/pescope/NEWS.gz; do
	grep -q " $f\$" "$out/contents" || missing="${missing:-} $f"
done
[ -z "${missing:-}" ] && ok "the package holds the program, man page, completions, copyright and NEWS" ||
    bad "the package lacks$missing"
echo "     Depends: $(dpkg-deb -f "$deb" Depends)"
echo "     Installed-Size: $(dpkg-deb -f "$deb" Installed-Size) KiB"

# 4. run it from a scratch root
root=$out/root
dpkg -x "$deb" "$root"
bin=$root/usr/bin/pescope
[ "$("$bin" --version | head -1)" = "pescope $version" ] && ok "scratch root: pescope --version: $("$bin" --version | tr '\n' ' ')" ||
    bad "scratch root: --version: $("$bin" --version)"
if "$bin" snapshot -e rope --size 80x24 -f txt >"$out/snap.txt" 2>"$out/snap.err" &&
    [ "$(wc -l <"$out/snap.txt")" -eq 24 ] && grep -q "rope" "$out/snap.txt"; then
	ok "scratch root: pescope snapshot writes a 24-line frame"
else
	bad "scratch root: snapshot: $(cat "$out/snap.err")"
fi
if command -v man >/dev/null 2>&1; then
	w=$(MANWIDTH=80 man -l "$root/usr/share/man/man1/pescope.1.gz" 2>&1 >"$out/man.txt")
	[ -z "$w" ] && grep -q "^NAME" "$out/man.txt" && grep -q "snapshot" "$out/man.txt" &&
	    ok "scratch root: man -l pescope.1.gz renders, no warnings" || bad "scratch root: man -l: $w"
	# the man page names the guide's folder, and the package put it there
	g=$(tr -s ' \n' ' ' <"$out/man.txt" | grep -o '/usr/share/doc/pescope/docs/' | head -1)
	[ -n "$g" ] && ls "$root$g" | grep -q '^encodings.md' &&
	    ok "scratch root: the man page points to the guide, $g ($(ls "$root$g" | wc -l) pages)" ||
	    bad "scratch root: the man page's guide: '$g'"
else
	zcat "$root/usr/share/man/man1/pescope.1.gz" | groff -man -Tutf8 -ww >"$out/man.txt" 2>"$out/man.err" &&
	    [ ! -s "$out/man.err" ] && ok "scratch root: groff renders the man page" || bad "groff: $(cat "$out/man.err")"
fi
c=$(bash -c 'source "$1"; COMP_WORDS=(pescope -e r); COMP_CWORD=2; _pescope; echo "${COMPREPLY[*]}"' _ \
    "$root/usr/share/bash-completion/completions/pescope")
[ "$c" = "relative rope rope2d" ] && ok "scratch root: bash completion of 'pescope -e r': $c" ||
    bad "scratch root: bash completion: '$c'"

# 5. lintian, on the binary package and on the source package (native:
# dpkg-source -b of a clean copy of the tarball)
if command -v lintian >/dev/null 2>&1; then
	t=$(now)
	changes=$(ls "$out"/deb/pescope_"$version"_*.changes)
	mkdir "$out/source" && cp -a "$tree" "$out/source/"
	(cd "$out/source" && dpkg-source -b "pescope-$version") >"$out/source.log" 2>&1 ||
	    bad "dpkg-source -b (see $out/source.log)"
	lintian --info --display-info --pedantic --display-experimental \
	    "$changes" "$out/source/pescope_$version.dsc" >"$out/lintian.txt" 2>&1
	# the golden frames' escape sequences make long lines (an experimental
	# tag, shown as a count)
	echo "     lintian: $(grep -c 'very-long-line-length-in-source-file' "$out/lintian.txt") X: very-long-line-length-in-source-file (screenshots/*.ansi, fuzz corpora)"
	sed -i '/very-long-line-length-in-source-file/d' "$out/lintian.txt"
	sed 's/^/     /' "$out/lintian.txt" | grep -E "^     [EWIPX]:" || true
	if grep -qE "^[EW]:" "$out/lintian.txt"; then
		bad "lintian: $(grep -cE '^[EW]:' "$out/lintian.txt") errors or warnings (see $out/lintian.txt)"
	else
		ok "lintian: no error, no warning ($(grep -cE '^[IPX]:' "$out/lintian.txt") info, pedantic or experimental tags)"
	fi
	took "$t"
else
	echo "skip lintian: it is not installed"
fi
finish
