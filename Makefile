# probecost: build, test, install.  GNU make.
#
#   make            build ./probecost
#   make check      lint, unit tests (cmocka) + CLI tests (prove), then the same under
#                   ASan/UBSan (less the CLI tests that compare timings)
#   make bench      side-by-side benchmarks against peer tools (bench/)
#   make install    PREFIX=/usr/local DESTDIR=   (make uninstall: the same files, removed)
#
# Every .c under src/ is part of the binary; every tests/unit/test_*.c is a test
# program linked against all of src/ except src/main.c.  Areas that need extra
# rules (generated headers, variant builds) put them in mk/*.mk.

PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
LIBDIR    ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR   ?= $(PREFIX)/share
MANDIR    ?= $(DATADIR)/man
DOCDIR    ?= $(DATADIR)/doc/probecost
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
DESTDIR   ?=
CC        ?= gcc
PKG_CONFIG ?= pkg-config
VERSION   := $(shell cat VERSION 2>/dev/null || echo 0.0.0)

# libpq, Capstone, cairo, PAPI and libpfm are compiled against but not linked: they are
# loaded when a command first needs them (src/core/dynlib.h), so `probecost workload`
# does not load them at every start.  (libprobecost links libpfm itself: mk/lib.mk.)
PKGS      := sqlite3 libelf cairo libcjson papi libpq libtracefs audit capstone
PKGS_LOADED := libpq capstone cairo papi
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell $(PKG_CONFIG) --libs $(filter-out $(PKGS_LOADED),$(PKGS)) 2>/dev/null)

WARN      := -Wall -Wextra -Werror -Wmissing-prototypes -Wstrict-prototypes -Wno-unused-parameter -Wshadow \
	-Wformat=2 -Wno-format-nonliteral \
	-Wno-format-truncation -Wno-stringop-truncation
BASE_CFLAGS := -std=gnu11 -g -D_GNU_SOURCE -DPCOST_VERSION='"$(VERSION)"' \
	-Iinclude -Isrc -Ibuild/gen $(PKG_CFLAGS) $(WARN)
CFLAGS    ?= -O2
LDLIBS    += $(PKG_LIBS) -lm -lpthread -ldl

# Build flavours: build/ (normal) and build/san/ (ASan + UBSan).
SAN_FLAGS := -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

SRCS      := $(sort $(wildcard src/*.c src/*/*.c))
LIB_SRCS  := $(filter-out src/main.c,$(SRCS))
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))

OBJS      := $(SRCS:%.c=build/obj/%.o)
SAN_OBJS  := $(SRCS:%.c=build/san/%.o)
LIB_OBJS  := $(LIB_SRCS:%.c=build/obj/%.o)
SAN_LIB_OBJS := $(LIB_SRCS:%.c=build/san/%.o)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=build/tests/%)
SAN_UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=build/san/tests/%)

# Extra objects linked into the binary (variant builds in mk/*.mk append here).
EXTRA_OBJS :=
SAN_EXTRA_OBJS :=
GEN_HEADERS :=

# What `make install` copies and `make uninstall` removes: one word per file,
# SOURCE:DEST:MODE (DEST absolute, under $(PREFIX); MODE 0644, 0755, ... or
# `link`, which makes DEST a symbolic link whose target is SOURCE).  Areas
# append their files in mk/*.mk; INSTALL_DIRS lists directories that belong to
# probecost alone, removed by uninstall when empty (deepest first).
INSTALL_FILES = probecost:$(BINDIR)/probecost:0755
INSTALL_DIRS  =

all: probecost

-include mk/*.mk

probecost: $(OBJS) $(EXTRA_OBJS)
	@echo "  CC $@"; $(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

build/probecost-san: $(SAN_OBJS) $(SAN_EXTRA_OBJS)
	@echo "  CC $@"; $(CC) $(SAN_FLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

build/obj/%.o: %.c $(GEN_HEADERS)
	@mkdir -p $(dir $@)
	@echo "  CC $@"; $(CC) $(BASE_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

build/san/%.o: %.c $(GEN_HEADERS)
	@mkdir -p $(dir $@)
	@echo "  CC $@"; $(CC) $(BASE_CFLAGS) $(SAN_FLAGS) -MMD -MP -c -o $@ $<

build/tests/%: tests/unit/%.c $(LIB_OBJS) $(EXTRA_OBJS)
	@mkdir -p $(dir $@)
	@echo "  CC $@"; $(CC) $(BASE_CFLAGS) $(CFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

build/san/tests/%: tests/unit/%.c $(SAN_LIB_OBJS) $(SAN_EXTRA_OBJS)
	@mkdir -p $(dir $@)
	@echo "  CC $@"; $(CC) $(BASE_CFLAGS) $(SAN_FLAGS) -o $@ $^ $(LDLIBS) -lcmocka

-include $(OBJS:.o=.d) $(SAN_OBJS:.o=.d)

# ---- tests ------------------------------------------------------------------
# Unit tests print cmocka's summary; CLI tests speak TAP to prove.  `make check` (the
# loop of whoever changes the code) builds on every CPU, runs the unit tests and every CLI
# test once but the slow ones, against ./probecost.
# `make check-full` (what CI runs) builds the sanitizer flavour too and runs the lint beside
# the build, then check's tests, the slow ones (check-slow), the sanitizer pass (check-san:
# the unit tests under ASan/UBSan, then a second CLI pass against build/probecost-san,
# less the tests marked no-sanitizer, below), then the README's tour (check-tour).  Neither
# the lint nor the sanitizer build is in check: cold, each about doubles its build time;
# the lint is the before-commit habit (`make lint`, incremental: a stamp a file).
# Both install what is missing first (scripts/setup.sh --deps), then re-enter make so
# pkg-config sees the new libraries.
# In check-full the lint runs beside the build, one make on every CPU (the build alone
# leaves CPUs idle while it links): its parts share that make's jobs (LINT_J= keeps their
# own makes from starting nproc jobs more), and a failure of either stops it before the
# tests.
check: deps
	@$(MAKE) --no-print-directory -j$(shell nproc) check-build
	@$(MAKE) --no-print-directory check-tests

check-full: deps
	@$(MAKE) --no-print-directory -j$(shell nproc) LINT_J= lint check-build san-build
	@$(MAKE) --no-print-directory check-tests
	@$(MAKE) --no-print-directory check-slow
	@$(MAKE) --no-print-directory check-san
	@$(MAKE) --no-print-directory check-tour

deps:
	@scripts/setup.sh --deps

check-build: probecost $(UNIT_BINS)
san-build: build/probecost-san $(SAN_UNIT_BINS)

# A CLI test that hangs fails after TEST_TIMEOUT seconds instead of stalling the suite.
TEST_TIMEOUT ?= 900
TEST_EXEC := timeout -k 10 $(TEST_TIMEOUT) bash

# CLI tests with a line `# parallel-safe` (they arm no probe on a binary another test runs,
# look at no tracefs state but their own and compare no timings, or only effects far
# beyond what load moves; `# parallel-safe: REASON` says why when it is not plain: a test
# that arms probes on probecost's own sites does it on a copy of its own, lib.bash's
# own_probecost; perf probe, which names its definitions from one list shared by all
# (the first free name), to one test at a time: those that add definitions take lib.bash's
# perf_probe_lock) run
# PROVE_JOBS at a time (twice the CPUs, 4 at least: they mostly wait; on 2 CPUs -j4 took
# 80 s for both passes where -j2 took 114 s), then the others one at a time.  The
# sanitizer pass repeats every test but those with a line `# no-sanitizer: REASON`
# (timings, which ASan only distorts); they run in the first.
# Tests with a line `# slow: REASON` (a statistical study of half a minute or more, whose
# known answer needs that many runs) are left to `make check-slow`, which check-full runs:
# make check stays a few minutes' loop, and nothing is dropped from CI.
CLI_ALL      := $(sort $(wildcard tests/cli/t*.sh))
CLI_SLOW     := $(shell grep -l '^\# slow: ' $(CLI_ALL))
CLI_TESTS    := $(filter-out $(CLI_SLOW),$(CLI_ALL))
CLI_PARALLEL := $(shell grep -lE '^\# parallel-safe(: |$$)' $(CLI_ALL))
CLI_NO_SAN   := $(shell grep -l '^\# no-sanitizer: ' $(CLI_ALL))
# Parallel-safe tests with a line `# long: REASON` start first, so that the group ends
# with the short ones (a test that waits 42 s, started last, made the group take 73 s).
CLI_LONG     := $(shell grep -l '^\# long: ' $(CLI_ALL))
# Those that take lib.bash's perf_probe_lock (one at a time among them) are spread evenly
# among the short ones: side by side they would hold jobs waiting on each other's lock
# (started together, last, they made the group's last 28 s).
CLI_LOCK     := $(shell grep -l '^perf_probe_lock ' $(CLI_ALL))
spread = $(shell printf '%s\n' $1 | awk -v lock='$(CLI_LOCK)' ' \
	BEGIN { n = split(lock, a, " "); for (i = 1; i <= n; i++) L[a[i]] = 1 } \
	{ if ($$0 in L) l[++nl] = $$0; else o[++no] = $$0 } \
	END { step = int(no / (nl + 1)); if (step < 1) step = 1; k = 1; \
	      for (i = 1; i <= no; i++) { print o[i]; if (i % step == 0 && k <= nl) print l[k++] } \
	      while (k <= nl) print l[k++] }')
PROVE_JOBS   ?= $(shell n=$$(nproc); echo $$((2 * n > 4 ? 2 * n : 4)))
PROVE_FLAGS  ?=
# $(call prove_par,BINARY,TESTS,ENV) and prove_ser: TESTS against BINARY, the
# parallel-safe ones PROVE_JOBS at a time, then the others one at a time.
# Each prove's output is kept in build/prove.log as well (prove_log); a pass that failed
# ends by repeating its failures (pass_end), so that a log's last lines name them: a CI
# report that shows only the tail showed a passing serial group after an unseen failure.
prove_par = { PROBECOST=$(CURDIR)/$1 $3 prove -f $(PROVE_FLAGS) -e '$(TEST_EXEC)' -j$(PROVE_JOBS) \
		$(filter $(CLI_LONG),$(filter $(CLI_PARALLEL),$2)) \
		$(call spread,$(filter-out $(CLI_LONG),$(filter $(CLI_PARALLEL),$2))) $(prove_log)
prove_ser = { PROBECOST=$(CURDIR)/$1 $3 prove -f $(PROVE_FLAGS) -e '$(TEST_EXEC)' \
		$(filter-out $(CLI_PARALLEL),$2) $(prove_log)
prove_log = || : >build/prove.failed; } 2>&1 | tee -a build/prove.log; \
	 [ ! -e build/prove.failed ] || fail=1;
# $(call pass_start) and $(call pass_end,UNIT-LOG): around one pass.
pass_start = fail=0; rm -f build/prove.log build/prove.failed;
pass_end = if [ $$fail != 0 ]; then echo "== what failed in this pass (as above)"; \
	 grep -hE '^(not ok |FAILED: |\[  FAILED  \] |[^ ]+\.sh +\(Wstat|  Failed tests?: )' \
		build/prove.log $1; fi; exit $$fail

# The unit tests run beside the parallel-safe CLI tests, which arm no probe on a binary the
# unit tests run and look at no tracefs state but their own; their output is kept in
# build/unit.log and shown after that group, and the serial tests start once both are done.
# $(call beside_par,UNIT-BINS,LABEL,BINARY,TESTS,ENV): that, for one flavour.
beside_par = $(pass_start) \
	 env --default-signal=INT,QUIT scripts/unit-tests.sh $2 $1 >build/unit.log 2>&1 & upid=$$!; \
	 echo "== CLI tests (prove), the unit tests beside the parallel-safe ones (build/unit.log)"; \
	 $(call prove_par,$3,$4,$5) \
	 wait $$upid; echo "== unit tests"; cat build/unit.log; \
	 ! grep '^FAILED: ' build/unit.log || fail=1; \
	 echo "== CLI tests (prove), one at a time"; \
	 $(call prove_ser,$3,$4,$5)

check-tests: check-build
	@$(call beside_par,$(UNIT_BINS),,probecost,$(CLI_TESTS)) \
	 $(call pass_end,build/unit.log)

check-slow: probecost
	@$(pass_start) \
	 echo "== slow CLI tests (prove, one at a time: $(notdir $(basename $(CLI_SLOW))))"; \
	 $(call prove_ser,probecost,$(CLI_SLOW)) \
	 $(call pass_end)

check-san: san-build
	@echo "== under ASan/UBSan (CLI tests not: $(notdir $(basename $(CLI_NO_SAN))))"; \
	 $(call beside_par,$(SAN_UNIT_BINS),--label "(asan/ubsan)",build/probecost-san, \
		$(filter-out $(CLI_NO_SAN),$(CLI_ALL)),ASAN_OPTIONS=detect_leaks=1 PROBECOST_SAN=1) \
	 $(call pass_end,build/unit.log)

# The README's tour (scripts/tour.sh, as root: a few minutes), its outputs checked for shape
# by tests/cli/check-tour.sh; kept in the directory it names when a check fails.
check-tour: probecost
	@if [ "$$(id -u)" != 0 ]; then echo "== tour: skipped (scripts/tour.sh runs as root)"; exit 0; fi; \
	 d=$$(mktemp -d /tmp/probecost-tour.XXXXXX) && echo "== tour (scripts/tour.sh $$d)" && \
	 scripts/tour.sh "$$d" && prove -f tests/cli/check-tour.sh :: "$$d" && rm -rf "$$d"

unit: $(UNIT_BINS)
	@for t in $^; do $$t || exit 1; done

bench: deps
	@$(MAKE) --no-print-directory bench-run

bench-run: probecost
	@for b in $(or $(BENCH),bench/*.sh); do echo "== $$b"; bash $$b || exit 1; done

# Sources of the install list (not link targets): what install builds first.
INSTALL_SRCS := $(foreach e,$(INSTALL_FILES),$(if $(filter link,$(lastword $(subst :, ,$e))),,$(firstword $(subst :, ,$e))))

install: all $(INSTALL_SRCS)
	@set -e; for e in $(INSTALL_FILES); do \
	  src=$${e%%:*}; rest=$${e#*:}; dest="$(DESTDIR)$${rest%:*}"; mode=$${rest##*:}; \
	  echo "  INSTALL $$dest"; \
	  if [ "$$mode" = link ]; then install -d "$${dest%/*}"; ln -sfn "$$src" "$$dest"; \
	  else install -D -m "$$mode" "$$src" "$$dest"; fi; \
	done

uninstall:
	@for e in $(INSTALL_FILES); do \
	  rest=$${e#*:}; dest="$(DESTDIR)$${rest%:*}"; \
	  if [ -e "$$dest" ] || [ -L "$$dest" ]; then echo "  RM $$dest"; rm -f "$$dest"; fi; \
	done; \
	for d in $(INSTALL_DIRS); do rmdir "$(DESTDIR)$$d" 2>/dev/null || true; done

# The installed paths, one a line (what uninstall removes).
install-list:
	@for e in $(INSTALL_FILES); do rest=$${e#*:}; echo "$(DESTDIR)$${rest%:*}"; done

clean:
	rm -rf build probecost

# ---- habits -------------------------------------------------------------------
# lint (run first by `make check`): the include layers (src/README.md), the files
# comments name, cppcheck, the format (.clang-format), shellcheck (.shellcheckrc)
# and clang-tidy's short list (.clang-tidy).  `make format` rewrites the C files in place.
C_FORMATTED := $(sort $(wildcard src/*.[ch] src/*/*.[ch] src/*/*/*.[ch] include/*/*.h lib/*.c \
		examples/*.c tests/unit/*.[ch] tests/fuzz/*.c tests/fixtures/*/*.c bench/*.c))
SH_CHECKED  := $(sort $(wildcard tests/cli/*.sh tests/cli/*.bash bench/*.sh bench/*.bash \
		scripts/*.sh completion/*.bash)) .ci/run
CLANG_FORMAT ?= clang-format
CPPCHECK_FLAGS := -q --std=c11 -D_GNU_SOURCE -DSTANFORD_VARIANT_plain -Iinclude -Isrc \
	--enable=warning,performance,portability --inline-suppr --error-exitcode=1 \
	--suppress=unknownMacro:src/workloads/stanford/lttng_tp.h \
	--template='{file}:{line}: {severity}: {message} [{id}]'

lint: layers named-files format-check cppcheck shellcheck tidy

# The jobs of format-check's and tidy's own makes: every CPU, unless a make that runs
# them beside others shares its jobs with them (check sets it empty).
LINT_J ?= -j$(shell nproc)

layers:
	@scripts/layers.sh

# Every ROOM/NAME.c or .h a comment under src/ names exists (none left behind by a move).
named-files:
	@scripts/named-files.sh

# One stamp a file (build/lint/fmt/FILE.ok), redone when the file or .clang-format changes.
FMT_STAMPS := $(C_FORMATTED:%=build/lint/fmt/%.ok)
format-check:
	@mkdir -p build/lint; $(MAKE) --no-print-directory -k $(LINT_J) fmt-files >/dev/null 2>build/lint/fmt.err || \
	 { echo "format-check: not as .clang-format writes them (make format):"; \
	   sed -n 's/^format-check: //p' build/lint/fmt.err; exit 1; }; \
	 echo "format-check: ok ($(words $(C_FORMATTED)) files)"

fmt-files: $(FMT_STAMPS)
	@:

build/lint/fmt/%.ok: % .clang-format
	@mkdir -p $(dir $@)
	@$(CLANG_FORMAT) --style=file "$<" | cmp -s - "$<" && touch $@ || { echo "format-check:   $<" >&2; exit 1; }

format:
	@$(CLANG_FORMAT) --style=file -i $(C_FORMATTED)

# Its build directory keeps each file's analysis: a file, or a header it includes,
# is read again only when it changed (6 s for the tree, under 1 s after).
cppcheck:
	@mkdir -p build/lint/cppcheck
	@cppcheck $(CPPCHECK_FLAGS) --cppcheck-build-dir=build/lint/cppcheck -j2 src tests/unit && \
	 echo "cppcheck: ok"

# A stamp a script (build/lint/sh/FILE.ok): only scripts newer than theirs, or all when
# a library they source (*.bash) or .shellcheckrc changed, are checked again, eight a
# shellcheck on every CPU (10 CPU seconds for the lot; one a shellcheck took twice that).
SH_LIBS := $(filter %.bash,$(SH_CHECKED)) .shellcheckrc
shellcheck:
	@stale=$$(for f in $(SH_CHECKED); do s=build/lint/sh/$$f.ok; \
		 for n in "$$f" $(SH_LIBS); do [ -e "$$s" ] && [ ! "$$n" -nt "$$s" ] || { echo "$$f"; break; }; done; \
	 done); \
	 printf '%s\n' $$stale | xargs -r -n 8 -P $(shell nproc) sh -c 'shellcheck -x "$$@" || exit 255; \
		for f; do mkdir -p "build/lint/sh/$${f%/*}"; touch "build/lint/sh/$$f.ok"; done' sh && \
	 echo "shellcheck: ok ($(words $(SH_CHECKED)) files, $$(echo $$stale | wc -w) checked)"

# clang (14) does not know gcc's -Wno-format-truncation and -Wno-stringop-truncation;
# kernels.c is read as one of its variants, as cppcheck reads it.
TIDY_CFLAGS := $(filter-out -Wno-format-truncation -Wno-stringop-truncation,$(BASE_CFLAGS)) \
	-DSTANFORD_VARIANT_plain
# One stamp a file (build/tidy/FILE.ok), redone when the file, a header or .clang-tidy
# changes, on every CPU: about 70 CPU seconds for the whole tree.
TIDY_SRCS := $(filter %.c,$(C_FORMATTED))
TIDY_DEPS := .clang-tidy $(GEN_HEADERS) $(wildcard src/*.h src/*/*.h src/*/*/*.h include/*/*.h \
		tests/unit/*.h)
# The generated headers first, by this make: beside check-build, two makes would write them.
tidy: $(GEN_HEADERS)
	@$(MAKE) --no-print-directory -k $(LINT_J) tidy-files && \
	 echo "tidy: ok ($(words $(TIDY_SRCS)) files)"

tidy-files: $(TIDY_SRCS:%.c=build/tidy/%.ok)
	@:

build/tidy/%.ok: %.c $(TIDY_DEPS)
	@mkdir -p $(dir $@)
	@out=$$(clang-tidy --quiet $< -- $(TIDY_CFLAGS) 2>&1) && touch $@ || \
	 { printf '%s\n' "$$out" | grep -v '^[0-9]* warnings\? generated\.$$'; exit 1; }

.PHONY: all check check-full check-build san-build check-san check-tour check-tests check-slow deps unit bench bench-run install uninstall install-list clean \
	lint layers named-files format-check format cppcheck shellcheck tidy tidy-files fmt-files
