# lib: libprobecost, the self-monitoring library of include/probecost/*.h,
# static (build/lib/libprobecost.a) and shared (build/lib/libprobecost.so.VERSION,
# soname libprobecost.so.$(PCLIB_ABI)), built from src/counters/ alone (no CLI code);
# probecost.pc for pkg-config; examples/time-region built against it.
#
# Paths baked into build outputs (the .pc file, the delay shim's directory in
# the binary) depend on build/gen/install-dirs, rewritten only when PREFIX or a
# directory changes, so `make install PREFIX=/usr` after `make` rebuilds them.

PCLIB_ABI   := 0
PCLIB_SRCS  := src/counters/lib.c src/counters/events.c src/counters/mmap_read.c
PCLIB_OBJS  := $(PCLIB_SRCS:%.c=build/pic/%.o)
PCLIB_A     := build/lib/libprobecost.a
PCLIB_SO    := build/lib/libprobecost.so.$(VERSION)
PCLIB_SONAME := libprobecost.so.$(PCLIB_ABI)
PCLIB_MAP   := lib/libprobecost.map
PCLIB_PC    := build/lib/probecost.pc
PCLIB_LIBS  := -lpfm
PCLIB_HDRS  := $(wildcard include/probecost/*.h)
EXAMPLES    := build/examples/time-region
INSTALL_STAMP := build/gen/install-dirs

all: $(PCLIB_A) $(PCLIB_SO) $(PCLIB_PC) $(EXAMPLES)
check-tests: $(PCLIB_A) $(PCLIB_SO) $(PCLIB_PC) $(EXAMPLES)

$(INSTALL_STAMP): FORCE
	@mkdir -p $(dir $@)
	@echo '$(PREFIX) $(LIBDIR) $(INCLUDEDIR) $(LIBDIR_PC)' | cmp -s - $@ || \
		echo '$(PREFIX) $(LIBDIR) $(INCLUDEDIR) $(LIBDIR_PC)' > $@
FORCE:
# The objects that bake LIBDIR_PC (mk/monitors.mk, mk/probes.mk).
build/obj/src/monitors/delay.o build/san/src/monitors/delay.o \
build/obj/src/workloads/lttng.o build/san/src/workloads/lttng.o: $(INSTALL_STAMP)

build/pic/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC $@"; $(CC) $(BASE_CFLAGS) $(CFLAGS) -fPIC -MMD -MP -c -o $@ $<
-include $(PCLIB_OBJS:.o=.d)

$(PCLIB_A): $(PCLIB_OBJS)
	@mkdir -p $(dir $@)
	@echo "  AR $@"; rm -f $@; $(AR) rcs $@ $^

$(PCLIB_SO): $(PCLIB_OBJS) $(PCLIB_MAP)
	@mkdir -p $(dir $@)
	@echo "  LD $@"; $(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(PCLIB_SONAME) \
		-Wl,--version-script,$(PCLIB_MAP) -Wl,--no-undefined -o $@ $(PCLIB_OBJS) $(PCLIB_LIBS)
	@ln -sfn $(notdir $@) build/lib/$(PCLIB_SONAME)
	@ln -sfn $(PCLIB_SONAME) build/lib/libprobecost.so

# libdir and includedir relative to ${prefix} when under it (relocatable .pc).
$(PCLIB_PC): $(INSTALL_STAMP) VERSION
	@mkdir -p $(dir $@)
	@echo "  GEN $@"; printf '%s\n' \
		'prefix=$(PREFIX)' \
		'libdir=$(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))' \
		'includedir=$(patsubst $(PREFIX)/%,$${prefix}/%,$(INCLUDEDIR))' \
		'' \
		'Name: probecost' \
		'Description: self-monitoring with perf_event counter groups (rdpmc, read, group read)' \
		'Version: $(VERSION)' \
		'Libs: -L$${libdir} -lprobecost' \
		'Libs.private: $(PCLIB_LIBS)' \
		'Cflags: -I$${includedir}' > $@

build/examples/%: examples/%.c $(PCLIB_A) $(PCLIB_HDRS)
	@mkdir -p $(dir $@)
	@echo "  CC $@"; $(CC) -std=gnu11 $(CFLAGS) $(WARN) -Iinclude -o $@ $< $(PCLIB_A) $(PCLIB_LIBS)

INSTALL_FILES += $(PCLIB_A):$(LIBDIR)/libprobecost.a:0644 \
		 $(PCLIB_SO):$(LIBDIR)/$(notdir $(PCLIB_SO)):0755 \
		 $(notdir $(PCLIB_SO)):$(LIBDIR)/$(PCLIB_SONAME):link \
		 $(PCLIB_SONAME):$(LIBDIR)/libprobecost.so:link \
		 $(PCLIB_PC):$(PKGCONFIGDIR)/probecost.pc:0644 \
		 $(foreach h,$(PCLIB_HDRS),$(h):$(INCLUDEDIR)/probecost/$(notdir $(h)):0644) \
		 examples/time-region.c:$(DOCDIR)/examples/time-region.c:0644
INSTALL_DIRS  += $(INCLUDEDIR)/probecost $(DOCDIR)/examples $(DOCDIR)

.PHONY: FORCE
