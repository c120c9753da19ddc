#!/bin/sh
# meson dist's script: record the commit the tarball is made from in
# .pescope-commit at its top, which tools/version.sh reads when the tarball
# is built without git.
set -eu
git -C "$MESON_PROJECT_SOURCE_ROOT" rev-parse HEAD >"$MESON_PROJECT_DIST_ROOT/.pescope-commit"
