# probecost: build, test, install.  GNU make.
#
#   make            build ./probecost
#   make check      unit tests (cmocka) + CLI tests (prove), then the same under ASan/UBSan
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

PKGS      := sqlite3 libelf cairo libcjson papi libpq libtracefs audit
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null) -lpfm

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
# Unit tests print cmocka's summary; CLI tests speak TAP to prove.  The second
# pass repeats both against the sanitizer build (PROBECOST=build/probecost-san).
# `make check` installs what is missing first (scripts/setup.sh --deps), then
# re-enters make so pkg-config sees the freshly installed libraries.
check: deps
	@$(MAKE) --no-print-directory lint
	@$(MAKE) --no-print-directory check-tests

deps:
	@scripts/setup.sh --deps

# A CLI test that hangs fails after TEST_TIMEOUT seconds instead of stalling the suite.
TEST_TIMEOUT ?= 900
TEST_EXEC := timeout -k 10 $(TEST_TIMEOUT) bash

check-tests: probecost build/probecost-san $(UNIT_BINS) $(SAN_UNIT_BINS)
	@fail=0; for t in $(UNIT_BINS); do echo "== $$t"; $$t || fail=1; done; \
	 for t in $(SAN_UNIT_BINS); do echo "== $$t (asan/ubsan)"; $$t || fail=1; done; \
	 echo "== CLI tests (prove)"; \
	 PROBECOST=$(CURDIR)/probecost prove -f -e '$(TEST_EXEC)' --ext .sh tests/cli/ || fail=1; \
	 echo "== CLI tests under ASan/UBSan (prove)"; \
	 PROBECOST=$(CURDIR)/build/probecost-san ASAN_OPTIONS=detect_leaks=1 \
	   PROBECOST_SAN=1 prove -e '$(TEST_EXEC)' --ext .sh tests/cli/ || fail=1; \
	 exit $$fail

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
# lint (run first by `make check`): the include layers (src/README.md), the
# format (.clang-format), cppcheck and shellcheck.  `make format` rewrites the
# C files in place; `make tidy` runs clang-tidy's short list (.clang-tidy).
C_FORMATTED := $(sort $(wildcard src/*.[ch] src/*/*.[ch] src/*/*/*.[ch] include/*/*.h lib/*.c \
		examples/*.c tests/unit/*.[ch] tests/fuzz/*.c bench/*.c))
SH_CHECKED  := $(sort $(wildcard tests/cli/*.sh tests/cli/*.bash bench/*.sh bench/*.bash \
		scripts/*.sh completion/*.bash)) .ci/run
CLANG_FORMAT ?= clang-format
CPPCHECK_FLAGS := -q --std=c11 -D_GNU_SOURCE -DSTANFORD_VARIANT_plain -Iinclude -Isrc \
	--enable=warning,performance,portability --inline-suppr --error-exitcode=1 \
	--suppress=unknownMacro:src/workloads/stanford/lttng_tp.h \
	--template='{file}:{line}: {severity}: {message} [{id}]'

# format-check and shellcheck join lint once the tree is formatted and clean.
lint: layers cppcheck

layers:
	@scripts/layers.sh

format-check:
	@bad=$$(for f in $(C_FORMATTED); do $(CLANG_FORMAT) --style=file "$$f" | cmp -s - "$$f" || echo "$$f"; done); \
	 if [ -n "$$bad" ]; then echo "format-check: not as .clang-format writes them (make format):"; \
	   printf '  %s\n' $$bad; exit 1; fi; echo "format-check: ok ($(words $(C_FORMATTED)) files)"

format:
	@$(CLANG_FORMAT) --style=file -i $(C_FORMATTED)

cppcheck:
	@cppcheck $(CPPCHECK_FLAGS) -j2 src tests/unit && echo "cppcheck: ok"

shellcheck:
	@shellcheck -x $(SH_CHECKED) && echo "shellcheck: ok ($(words $(SH_CHECKED)) files)"

tidy: $(GEN_HEADERS)
	@clang-tidy --quiet $(filter %.c,$(C_FORMATTED)) -- $(BASE_CFLAGS) 2>/dev/null

.PHONY: all check check-tests deps unit bench bench-run install uninstall install-list clean \
	lint layers format-check format cppcheck shellcheck tidy
