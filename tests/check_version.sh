#!/bin/sh
# The version is said once (meson.build, here $PESCOPE_PROJECT_VERSION) and
# repeated rightly: `pescope --version` prints it and the commit it was built
# from (git's own answer when the source is a git work tree, a release
# tarball's recorded commit, or "unknown"); NEWS's newest entry, CITATION.cff
# and debian/changelog carry the same number. $PESCOPE_BIN, $PESCOPE_SRCDIR.
set -u
bin=${PESCOPE_BIN:?}
src=${PESCOPE_SRCDIR:?}
want=${PESCOPE_PROJECT_VERSION:?}
dir=$(mktemp -d "${TMPDIR:-/tmp}/pescope-version.XXXXXX")
trap 'rm -rf "$dir"' EXIT INT TERM
fails=0 n=0
ok() { n=$((n + 1)); echo "ok   $*"; }
bad() { n=$((n + 1)); fails=$((fails + 1)); echo "FAIL $*"; }

"$bin" --version >"$dir/v" 2>"$dir/e" || bad "--version exits $?"
[ "$(sed -n 1p "$dir/v")" = "pescope $want" ] && ok "--version: pescope $want" ||
    bad "--version line 1: $(sed -n 1p "$dir/v"), want pescope $want"
[ "$(wc -l <"$dir/v")" -eq 2 ] && [ ! -s "$dir/e" ] && ok "--version: two lines, nothing on stderr" ||
    bad "--version: $(wc -l <"$dir/v") lines, stderr: $(cat "$dir/e")"
line2=$(sed -n 2p "$dir/v")
top=$(git -C "$src" rev-parse --show-toplevel 2>/dev/null) && top=$(cd "$top" && pwd -P)
if [ -n "${top:-}" ] && [ "$top" = "$(cd "$src" && pwd -P)" ]; then
	c=$(git -C "$src" rev-parse HEAD | cut -c1-12)
	case $line2 in
	"commit $c" | "commit $c, with uncommitted changes") ok "--version: $line2 (git: $c)" ;;
	*) bad "--version line 2: $line2, git says $c" ;;
	esac
elif [ -f "$src/.pescope-commit" ]; then
	c=$(cut -c1-12 "$src/.pescope-commit")
	[ "$line2" = "commit $c (from a release tarball)" ] && ok "--version: $line2" ||
	    bad "--version line 2: $line2, the tarball says $c"
else
	case $line2 in
	"commit unknown"*) ok "--version: $line2" ;;
	*) bad "--version line 2 without git or a record: $line2" ;;
	esac
fi

# tools/version.sh outside git: a tarball's record, else unknown
mkdir "$dir/t"
[ "$("$src/tools/version.sh" "$dir/t")" = "commit unknown (built outside git, from a tree that does not record it)" ] &&
    ok "version.sh: no git, no record: unknown" || bad "version.sh without git: $("$src/tools/version.sh" "$dir/t")"
echo 0123456789abcdef0123456789abcdef01234567 >"$dir/t/.pescope-commit"
[ "$("$src/tools/version.sh" "$dir/t")" = "commit 0123456789ab (from a release tarball)" ] &&
    ok "version.sh: a tarball's record" || bad "version.sh with a record: $("$src/tools/version.sh" "$dir/t")"
# a tree inside someone else's git repository is not that repository's commit
if command -v git >/dev/null; then
	mkdir -p "$dir/repo/sub" && git -C "$dir/repo" init -q 2>/dev/null &&
	    git -C "$dir/repo" -c user.name=t -c user.email=t@t commit -q --allow-empty -m t 2>/dev/null
	case $("$src/tools/version.sh" "$dir/repo/sub") in
	"commit unknown"*) ok "version.sh: a tree inside another git repository" ;;
	*) bad "version.sh took the enclosing repository's commit" ;;
	esac
fi

news=$(sed -n 's/^\([0-9][0-9.]*\) (.*$/\1/p' "$src/NEWS" | head -1)
[ "$news" = "$want" ] && ok "NEWS's newest entry is $want" || bad "NEWS's newest entry is $news, not $want"
cff=$(sed -n 's/^version: *//p' "$src/CITATION.cff")
[ "$cff" = "$want" ] && ok "CITATION.cff says $want" || bad "CITATION.cff says $cff, not $want"
if [ -f "$src/debian/changelog" ]; then
	deb=$(sed -n '1s/^pescope (\([^)]*\)).*/\1/p' "$src/debian/changelog")
	[ "$deb" = "$want" ] && ok "debian/changelog says $want" || bad "debian/changelog says $deb, not $want"
fi
grep -q "^MIT License" "$src/LICENSE" && grep -q "license : 'MIT'" "$src/meson.build" &&
    ok "LICENSE and meson.build: MIT" || bad "LICENSE and meson.build disagree"
echo "$((n - fails)) passed, $fails failed"
[ $fails -eq 0 ]
