# The README's two commands: `make run` and `make test`. Both install what is
# missing (as root; otherwise they print the apt-get line), configure meson
# and build; `make test` then runs the suite twice: a normal build and an
# ASan+UBSan build (gcc), builds with clang (warnings are errors there) and
# runs its unit tests, then checks what a user installs (test-pkg: the
# release tarball builds and passes its tests, the Debian package builds,
# runs from a scratch root and satisfies lintian; test-chroot: apt installs
# it in a fresh Debian chroot).

PACKAGES := gcc clang meson ninja-build pkg-config libncurses-dev libsleef-dev \
	libcglm-dev libcriterion-dev libvterm-dev python3 python3-numpy tmux locales \
	libcairo2-dev fonts-dejavu-core poppler-utils libjansson-dev libchafa-dev \
	dpkg-dev debhelper lintian man-db debootstrap \
	xvfb xdotool imagemagick kitty libgl1 libgl1-mesa-dri xterm mlterm chromium
# chromium: `make test` renders the HTML and SVG snapshots in headless
# Chromium (tests/check_browser.py), as the terminals' check runs kitty,
# xterm and mlterm: a check that skips on CI checks nothing.

BUILD := build
ASAN := build-asan
CLANG := build-clang
PKG := build-pkg
CHROOT := build-chroot
MESON_TEST := meson test --print-errorlogs --num-processes 2

.PHONY: all deps build run test test-normal test-asan test-clang test-pkg test-chroot \
	screenshots bench clean fuzz

all: build

deps:
	@missing=""; \
	for p in $(PACKAGES); do \
		dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "Installing:$$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
		else \
			echo "Missing packages. Run:"; \
			echo "  sudo apt-get install -y$$missing"; \
			exit 1; \
		fi; \
	fi

$(BUILD)/build.ninja:
	meson setup $(BUILD) --buildtype=debugoptimized

$(ASAN)/build.ninja:
	meson setup $(ASAN) --buildtype=debug -Db_sanitize=address,undefined -Db_lundef=false

$(CLANG)/build.ninja:
	CC=clang meson setup $(CLANG) --buildtype=debugoptimized --werror

build: deps $(BUILD)/build.ninja
	ninja -C $(BUILD)

run: build
	./$(BUILD)/pescope

test: deps
	@rc=0; \
	$(MAKE) --no-print-directory test-normal || rc=1; \
	$(MAKE) --no-print-directory test-asan || rc=1; \
	$(MAKE) --no-print-directory test-clang || rc=1; \
	$(MAKE) --no-print-directory test-pkg || rc=1; \
	$(MAKE) --no-print-directory test-chroot || rc=1; \
	cat $(BUILD)/summary.txt $(ASAN)/summary.txt $(CLANG)/summary.txt \
	    $(PKG)/summary.txt \
	    $(CHROOT)/summary.txt 2>/dev/null | \
	    awk '{p+=$$1; f+=$$2; s+=$$3} END {printf "all: %d passed, %d failed, %d skipped\n", p, f, s}'; \
	exit $$rc

test-normal: $(BUILD)/build.ninja
	ninja -C $(BUILD)
	@tools/run-tests.sh $(BUILD) normal

test-asan: $(ASAN)/build.ninja
	ninja -C $(ASAN)
	@tools/run-tests.sh $(ASAN) sanitized

# clang: the whole tree with -Werror, and the unit tests (the frames and
# tables are the same bits as gcc's: -ffp-contract=off, meson.build).
test-clang: $(CLANG)/build.ninja
	ninja -C $(CLANG)
	@tools/run-tests.sh $(CLANG) clang --suite unit

# The release tarball (meson dist of what is committed) and the Debian
# package built from it: tests/check_package.sh (PKG_TESTS=all runs the
# tarball's whole suite instead of its subset).
test-pkg: $(BUILD)/build.ninja
	@tests/check_package.sh $(BUILD) $(PKG)

# apt install of the package into a fresh Debian chroot (debootstrap, from
# Debian's mirror), then pescope snapshot there: tools/check-chroot.sh
# (skipped, exit 77, without root, debootstrap or the mirror).
test-chroot:
	@tools/check-chroot.sh $(PKG)/deb/pescope_*.deb $(CHROOT)/root; \
	    rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 77 ]

screenshots: build
	tools/screenshots.sh ./$(BUILD)/pescope screenshots

bench: build
	./$(BUILD)/pescope bench

clean:
	rm -rf $(BUILD) $(ASAN) $(CLANG) $(FUZZ) $(PKG) $(CHROOT)

# libFuzzer targets (clang), each run for FUZZ_SECONDS on its corpus under
# fuzz/corpus/ (new inputs go to build-fuzz/corpus-*, not into the repo).
FUZZ := build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := options npy lesson hfconfig link

$(FUZZ)/build.ninja:
	@command -v clang >/dev/null || { [ "$$(id -u)" = 0 ] && apt-get install -y -qq clang >/dev/null; } || { echo "make fuzz needs clang"; exit 1; }
	CC=clang meson setup $(FUZZ) --buildtype=debug -Dfuzz=true -Dtests=false \
	    -Db_sanitize=address,undefined -Db_lundef=false

fuzz: deps $(FUZZ)/build.ninja
	ninja -C $(FUZZ)
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ)/corpus-$$t; \
		echo "== fuzz_$$t for $(FUZZ_SECONDS) s (log: $(FUZZ)/fuzz_$$t.log)"; \
		./$(FUZZ)/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) \
		    -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 \
		    -artifact_prefix=$(FUZZ)/ $(FUZZ)/corpus-$$t fuzz/corpus/$$t \
		    >$(FUZZ)/fuzz_$$t.log 2>&1; rc=$$?; \
		grep -E "^stat::number_of_executed_units|^Done|ERROR|SUMMARY" \
		    $(FUZZ)/fuzz_$$t.log; \
		[ $$rc -eq 0 ] || { echo "fuzz_$$t failed ($$rc)"; exit 1; }; \
	done
