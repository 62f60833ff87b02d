# probecost: build, test, install.  GNU make.
#
#   make            build ./probecost
#   make check      unit tests (cmocka) + CLI tests (prove), then the same under ASan/UBSan
#   make bench      side-by-side benchmarks against peer tools (bench/)
#   make install    PREFIX=/usr/local DESTDIR=
#
# Every .c under src/ is part of the binary; every tests/unit/test_*.c is a test
# program linked against all of src/ except src/main.c.  Areas that need extra
# rules (generated headers, variant builds) put them in mk/*.mk.

PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
DESTDIR   ?=
CC        ?= gcc
PKG_CONFIG ?= pkg-config
VERSION   := $(shell cat VERSION 2>/dev/null || echo 0.0.0)

PKGS      := sqlite3 libelf cairo libcjson papi libpq
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null) -lpfm

WARN      := -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow -Wformat=2 -Wno-format-nonliteral \
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
	@$(MAKE) --no-print-directory check-tests

deps:
	@scripts/setup.sh --deps

check-tests: probecost build/probecost-san $(UNIT_BINS) $(SAN_UNIT_BINS)
	@fail=0; for t in $(UNIT_BINS); do echo "== $$t"; $$t || fail=1; done; \
	 for t in $(SAN_UNIT_BINS); do echo "== $$t (asan/ubsan)"; $$t || fail=1; done; \
	 echo "== CLI tests (prove)"; \
	 PROBECOST=$(CURDIR)/probecost prove -f -e bash --ext .sh tests/cli/ || fail=1; \
	 echo "== CLI tests under ASan/UBSan (prove)"; \
	 PROBECOST=$(CURDIR)/build/probecost-san ASAN_OPTIONS=detect_leaks=1 \
	   PROBECOST_SAN=1 prove -e bash --ext .sh tests/cli/ || fail=1; \
	 exit $$fail

unit: $(UNIT_BINS)
	@for t in $^; do $$t || exit 1; done

bench: deps
	@$(MAKE) --no-print-directory bench-run

bench-run: probecost
	@for b in $(or $(BENCH),bench/*.sh); do echo "== $$b"; bash $$b || exit 1; done

install: probecost
	install -d $(DESTDIR)$(BINDIR)
	install -m 0755 probecost $(DESTDIR)$(BINDIR)/probecost

clean:
	rm -rf build probecost

.PHONY: all check check-tests deps unit bench bench-run install clean
