#!/bin/sh
# The commit pescope is built from, for `pescope --version` (meson's vcs_tag
# runs this at every build; the file it writes changes only when this
# output does). Usage: version.sh SRCDIR.
#   a git work tree whose top is SRCDIR: "commit 1a2b3c4d5e6f" (", with
#     uncommitted changes" when the tracked files differ from it);
#   a release tarball (meson dist writes .pescope-commit, tools/dist.sh):
#     "commit 1a2b3c4d5e6f (from a release tarball)";
#   anything else: it says the commit is unknown.
# A tree unpacked inside another project's git repository is not taken for
# that repository's commit: the top of the work tree must be SRCDIR.
src=${1:-.}
here=$(cd "$src" 2>/dev/null && pwd -P) || here=$src
top=$(git -C "$src" rev-parse --show-toplevel 2>/dev/null) &&
	top=$(cd "$top" && pwd -P) || top=
if [ -n "$top" ] && [ "$top" = "$here" ] &&
    c=$(git -C "$src" rev-parse --short=12 HEAD 2>/dev/null); then
	if git -C "$src" diff --quiet HEAD -- 2>/dev/null; then
		echo "commit $c"
	else
		echo "commit $c, with uncommitted changes"
	fi
elif [ -f "$src/.pescope-commit" ]; then
	echo "commit $(head -c 40 "$src/.pescope-commit" | tr -cd '0-9a-f' |
	    cut -c1-12) (from a release tarball)"
else
	echo "commit unknown (built outside git, from a tree that does not record it)"
fi
