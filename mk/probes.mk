# probes: the stanford workload's five probe variants and the SDT fuzzer.
#
# src/workloads/stanford/kernels.c is compiled once per variant with
# -DSTANFORD_VARIANT_<v> into build/{obj,san}/stanford/kernels_<v>.o (each
# defines pcost_stanford_<v>), so every variant lives in the probecost binary.
# The semaphore variants take their macros from `dtrace -h` and their
# semaphores from `dtrace -G` (systemtap-sdt-dev) on a per-variant copy of
# stanford.d whose provider is renamed stanford_<v>.

STANFORD_VARIANTS := none plain volatile plain_sem volatile_sem
STANFORD_SEM      := plain_sem volatile_sem
STANFORD_SRC      := src/workloads/stanford/kernels.c
STANFORD_D        := src/workloads/stanford/stanford.d
STANFORD_HDRS     := $(STANFORD_SEM:%=build/gen/stanford_%.h)
STANFORD_DEPS     := src/workloads/stanford/kernels.h src/workloads/site_nops.h
DTRACE            ?= dtrace

GEN_HEADERS    += $(STANFORD_HDRS)
EXTRA_OBJS     += $(STANFORD_VARIANTS:%=build/obj/stanford/kernels_%.o) \
		  $(STANFORD_SEM:%=build/obj/stanford/sem_%.o)
SAN_EXTRA_OBJS += $(STANFORD_VARIANTS:%=build/san/stanford/kernels_%.o) \
		  $(STANFORD_SEM:%=build/obj/stanford/sem_%.o)

build/gen/stanford_%.d: $(STANFORD_D)
	@mkdir -p $(dir $@)
	@echo "  GEN $@"; sed 's/^provider stanford /provider stanford_$* /' $< > $@

build/gen/stanford_%.h: build/gen/stanford_%.d
	@echo "  DTRACE -h $@"; $(DTRACE) -h -s $< -o $@

# dtrace -G runs the C compiler itself (CC); the object only holds semaphores.
build/obj/stanford/sem_%.o: build/gen/stanford_%.d
	@mkdir -p $(dir $@)
	@echo "  DTRACE -G $@"; $(DTRACE) -G -s $< -o $@

build/obj/stanford/kernels_%.o: $(STANFORD_SRC) $(STANFORD_HDRS) $(STANFORD_DEPS)
	@mkdir -p $(dir $@)
	@echo "  CC $@"; $(CC) $(BASE_CFLAGS) $(CFLAGS) -DSTANFORD_VARIANT_$* -c -o $@ $<

build/san/stanford/kernels_%.o: $(STANFORD_SRC) $(STANFORD_HDRS) $(STANFORD_DEPS)
	@mkdir -p $(dir $@)
	@echo "  CC $@"; $(CC) $(BASE_CFLAGS) $(SAN_FLAGS) -DSTANFORD_VARIANT_$* -c -o $@ $<

.PRECIOUS: build/gen/stanford_%.d build/gen/stanford_%.h

# ---- code-layout copies, for the dormant cost --------------------------------
# Each stanford build again at other code layouts (entry
# pcost_stanford_<v>_<layout>), so a dormant probe's cost is measured at
# several layouts and a layout effect is not taken for the probe: functions,
# loops and jumps aligned to 8, 16, 32 or 64 bytes (a8 ... a64) or not at all
# (noalign); every function 64-aligned and then pushed 16, 24 or 40 bytes into
# its cache line by nops before its entry, never executed (pad16, pad24,
# pad40: -fpatchable-function-entry=N,N); basic blocks laid out by the simple
# algorithm instead of the default one (bbsimple).  Each moves the code (t546
# checks that no two copies of a build have the same bytes, and the functions'
# offsets in their cache lines).  The copies' SDT notes are removed: the
# binary lists every probe once (from the default copies); the sites
# themselves (nop, argument set-up, semaphore test) stay.  stanford.c selects
# a copy with layout=NAME (stanford.h lists them in this order).
STANFORD_LAYOUTS := a32 a64 a16 a8 noalign pad16 pad24 pad40 bbsimple
STANFORD_LAYOUT_FLAGS_a32 := -falign-functions=32 -falign-loops=32 -falign-jumps=32
STANFORD_LAYOUT_FLAGS_a64 := -falign-functions=64 -falign-loops=64 -falign-jumps=64
STANFORD_LAYOUT_FLAGS_a16 := -falign-functions=16 -falign-loops=16 -falign-jumps=16
STANFORD_LAYOUT_FLAGS_a8 := -falign-functions=8 -falign-loops=8 -falign-jumps=8
STANFORD_LAYOUT_FLAGS_noalign := -fno-align-functions -fno-align-loops -fno-align-jumps \
	-fno-align-labels
STANFORD_LAYOUT_FLAGS_pad16 := -falign-functions=64 -fpatchable-function-entry=16,16
STANFORD_LAYOUT_FLAGS_pad24 := -falign-functions=64 -fpatchable-function-entry=24,24
STANFORD_LAYOUT_FLAGS_pad40 := -falign-functions=64 -fpatchable-function-entry=40,40
STANFORD_LAYOUT_FLAGS_bbsimple := -freorder-blocks-algorithm=simple
OBJCOPY ?= objcopy

define stanford_layout_rules
build/obj/stanford/kernels_%_$(1).o: $$(STANFORD_SRC) $$(STANFORD_HDRS) $$(STANFORD_DEPS)
	@mkdir -p $$(dir $$@)
	@echo "  CC $$@"; $$(CC) $$(BASE_CFLAGS) $$(CFLAGS) $$(STANFORD_LAYOUT_FLAGS_$(1)) \
		-DSTANFORD_VARIANT_$$* -DSTANFORD_LAYOUT=_$(1) -c -o $$@ $$< && \
		$$(OBJCOPY) --remove-section=.note.stapsdt $$@
build/san/stanford/kernels_%_$(1).o: $$(STANFORD_SRC) $$(STANFORD_HDRS) $$(STANFORD_DEPS)
	@mkdir -p $$(dir $$@)
	@echo "  CC $$@"; $$(CC) $$(BASE_CFLAGS) $$(SAN_FLAGS) $$(STANFORD_LAYOUT_FLAGS_$(1)) \
		-DSTANFORD_VARIANT_$$* -DSTANFORD_LAYOUT=_$(1) -c -o $$@ $$< && \
		$$(OBJCOPY) --remove-section=.note.stapsdt $$@
EXTRA_OBJS     += $$(STANFORD_VARIANTS:%=build/obj/stanford/kernels_%_$(1).o)
SAN_EXTRA_OBJS += $$(STANFORD_VARIANTS:%=build/san/stanford/kernels_%_$(1).o)
endef
$(foreach l,$(STANFORD_LAYOUTS),$(eval $(call stanford_layout_rules,$(l))))

# ---- probe-site encodings (probecost probes --sites) ------------------------
# Each probe variant again with its sites emitted as a 5-byte and a 10-byte nop
# (-DSTANFORD_SITE_<s>, see kernels.c): objects build/{obj,san}/stanford/<s>/
# kernels_<v>.o, providers stanford_<v>_<s>, entry points pcost_stanford_<v>_<s>.
# nop5_nrz (site nop5-nrz) is nop5 compiled with -mno-red-zone: the 6.18 optimized
# uprobe CALLs into [uprobes-trampoline], which pushes below rsp, and a leaf
# function (fft) keeps data there otherwise.
STANFORD_SITES     := nop5 nop10 nop5_nrz
STANFORD_SITE_FLAGS_nop5_nrz := -mno-red-zone
STANFORD_SITE_VARS := plain volatile plain_sem volatile_sem
STANFORD_SITE_SEMS := $(foreach s,$(STANFORD_SITES),$(STANFORD_SEM:%=%_$(s)))
STANFORD_SITE_HDRS := $(STANFORD_SITE_SEMS:%=build/gen/stanford_%.h)

GEN_HEADERS    += $(STANFORD_SITE_HDRS)
EXTRA_OBJS     += $(foreach s,$(STANFORD_SITES),$(STANFORD_SITE_VARS:%=build/obj/stanford/$(s)/kernels_%.o)) \
		  $(STANFORD_SITE_SEMS:%=build/obj/stanford/sem_%.o)
SAN_EXTRA_OBJS += $(foreach s,$(STANFORD_SITES),$(STANFORD_SITE_VARS:%=build/san/stanford/$(s)/kernels_%.o)) \
		  $(STANFORD_SITE_SEMS:%=build/obj/stanford/sem_%.o)

# $(1): site, $(2): obj or san, $(3): its compiler flags
define stanford_site_rule
build/$(2)/stanford/$(1)/kernels_%.o: $$(STANFORD_SRC) $$(STANFORD_SITE_HDRS) $$(STANFORD_DEPS)
	@mkdir -p $$(dir $$@)
	@echo "  CC $$@"; $$(CC) $$(BASE_CFLAGS) $(3) $$(STANFORD_SITE_FLAGS_$(1)) -DSTANFORD_VARIANT_$$* \
		-DSTANFORD_SITE_$(1) -c -o $$@ $$<
endef
$(foreach s,$(STANFORD_SITES),$(eval $(call stanford_site_rule,$(s),obj,$$(CFLAGS))))
$(foreach s,$(STANFORD_SITES),$(eval $(call stanford_site_rule,$(s),san,$$(SAN_FLAGS))))

# ---- fuzzing the SDT note reader (libFuzzer, clang) -------------------------
#   make fuzz-sdt                 build build/fuzz/fuzz_sdt
#   make fuzz-sdt-run FUZZ_SECS=N run it N seconds (default 20) on the corpus
# The corpus is real ELF files: a small binary with a plain and a
# semaphore-guarded probe, built here, as is and stripped (big binaries mutate
# too slowly to be useful seeds).
FUZZ_CC   ?= clang
FUZZ_SECS ?= 20
FUZZ_DIR  := build/fuzz

$(FUZZ_DIR)/fuzz_sdt: tests/fuzz/fuzz_sdt.c src/probes/sdt.c src/probes/sdt.h
	@mkdir -p $(dir $@)
	@echo "  FUZZ-CC $@"; $(FUZZ_CC) -g -O1 -std=gnu11 -D_GNU_SOURCE -Isrc \
		-fsanitize=fuzzer,address,undefined -o $@ tests/fuzz/fuzz_sdt.c src/probes/sdt.c -lelf

$(FUZZ_DIR)/sdt_seed: tests/fuzz/sdt_seed.c
	@mkdir -p $(dir $@)
	@$(CC) -O2 -o $@ $<

$(FUZZ_DIR)/corpus/.stamp: $(FUZZ_DIR)/sdt_seed
	@mkdir -p $(dir $@)
	@cp $(FUZZ_DIR)/sdt_seed $(FUZZ_DIR)/corpus/sdt_seed
	@strip -o $(FUZZ_DIR)/corpus/sdt_seed_stripped $(FUZZ_DIR)/sdt_seed
	@touch $@

fuzz-sdt: $(FUZZ_DIR)/fuzz_sdt

fuzz-sdt-run: $(FUZZ_DIR)/fuzz_sdt $(FUZZ_DIR)/corpus/.stamp
	@mkdir -p $(FUZZ_DIR)/work
	$(FUZZ_DIR)/fuzz_sdt -max_total_time=$(FUZZ_SECS) -max_len=65536 -rss_limit_mb=1024 \
		-print_final_stats=1 $(FUZZ_DIR)/work $(FUZZ_DIR)/corpus

.PHONY: fuzz-sdt fuzz-sdt-run

# ---- the sdtargs workload's provider (probes by argument count) ------------
# src/workloads/sdtargs.c includes build/gen/pcost_args.h (dtrace -h); its
# semaphores come from dtrace -G.  Kept apart from the stanford providers.
SDTARGS_D := src/workloads/sdtargs.d

GEN_HEADERS    += build/gen/pcost_args.h
EXTRA_OBJS     += build/obj/sdtargs_sem.o
SAN_EXTRA_OBJS += build/obj/sdtargs_sem.o

build/gen/pcost_args.h: $(SDTARGS_D)
	@mkdir -p $(dir $@)
	@echo "  DTRACE -h $@"; $(DTRACE) -h -s $< -o $@

build/obj/sdtargs_sem.o: $(SDTARGS_D)
	@mkdir -p $(dir $@)
	@echo "  DTRACE -G $@"; $(DTRACE) -G -s $< -o $@

# The loop again in each probe-site encoding: sdtargs.c with -DSDTARGS_SITE=<s>,
# provider pcost_args_<s> (its own dtrace -h header and -G semaphores), entry
# pcost_sdtargs_loop_<s>; nop5_nrz is nop5 compiled with -mno-red-zone, as stanford's.
SDTARGS_SITES := nop5 nop10 nop5_nrz
SDTARGS_SITE_NOP_nop5 := PCOST_SITE_NOP5
SDTARGS_SITE_NOP_nop10 := PCOST_SITE_NOP10
SDTARGS_SITE_NOP_nop5_nrz := PCOST_SITE_NOP5

GEN_HEADERS    += $(SDTARGS_SITES:%=build/gen/pcost_args_%.h)
EXTRA_OBJS     += $(SDTARGS_SITES:%=build/obj/sdtargs/%.o) $(SDTARGS_SITES:%=build/obj/sdtargs/sem_%.o)
SAN_EXTRA_OBJS += $(SDTARGS_SITES:%=build/san/sdtargs/%.o) $(SDTARGS_SITES:%=build/obj/sdtargs/sem_%.o)

build/gen/pcost_args_%.d: $(SDTARGS_D)
	@mkdir -p $(dir $@)
	@echo "  GEN $@"; sed 's/^provider pcost_args /provider pcost_args_$* /' $< > $@

build/gen/pcost_args_%.h: build/gen/pcost_args_%.d
	@echo "  DTRACE -h $@"; $(DTRACE) -h -s $< -o $@

build/obj/sdtargs/sem_%.o: build/gen/pcost_args_%.d
	@mkdir -p $(dir $@)
	@echo "  DTRACE -G $@"; $(DTRACE) -G -s $< -o $@

# $(1): obj or san, $(2): its compiler flags
define sdtargs_site_rule
build/$(1)/sdtargs/%.o: src/workloads/sdtargs.c src/workloads/sdtargs.h src/workloads/site_nops.h \
		build/gen/pcost_args_%.h
	@mkdir -p $$(dir $$@)
	@echo "  CC $$@"; $$(CC) $$(BASE_CFLAGS) $(2) $$(STANFORD_SITE_FLAGS_$$*) -DSDTARGS_SITE=$$* \
		-DSDTARGS_SITE_UP=$$$$(echo $$* | tr a-z A-Z) -DSDTARGS_SITE_NOP=$$(SDTARGS_SITE_NOP_$$*) \
		-c -o $$@ $$<
endef
$(eval $(call sdtargs_site_rule,obj,$$(CFLAGS)))
$(eval $(call sdtargs_site_rule,san,$$(SAN_FLAGS)))

.PRECIOUS: build/gen/pcost_args_%.d build/gen/pcost_args_%.h

# ---- LTTng-UST builds (probecost probes --via lttng) -------------------------
# kernels.c with -DSTANFORD_VARIANT_lttng (a tracepoint per site) and the
# provider of src/workloads/stanford/lttng_tp.h, in a shared object the
# workloads dlopen (workloads/lttng.c): liblttng-ust never loads into
# probecost itself.  Built when pkg-config finds lttng-ust (liblttng-ust-dev).
LTTNG_SO := build/lttng/pcost-lttng.so
ifneq ($(shell $(PKG_CONFIG) --exists lttng-ust 2>/dev/null && echo yes),)
LTTNG_CFLAGS := $(BASE_CFLAGS) -O2 -fPIC $(shell $(PKG_CONFIG) --cflags lttng-ust)

build/lttng/%.o: src/workloads/stanford/%.c src/workloads/stanford/lttng_tp.h \
		$(STANFORD_DEPS)
	@mkdir -p $(dir $@)
	@echo "  CC $@"; $(CC) $(LTTNG_CFLAGS) -DSTANFORD_VARIANT_lttng -c -o $@ $<

$(LTTNG_SO): build/lttng/kernels.o build/lttng/lttng_tp.o
	@echo "  CC $@"; $(CC) -shared -o $@ $^ $(shell $(PKG_CONFIG) --libs lttng-ust) -lm

all check-tests bench-run: $(LTTNG_SO)
LIBDIR_PC ?= $(PREFIX)/lib/probecost
INSTALL_FILES += $(LTTNG_SO):$(LIBDIR_PC)/pcost-lttng.so:0644
INSTALL_DIRS  += $(LIBDIR_PC)
endif
# Where an installed probecost finds pcost-lttng.so (workloads/lttng.c).
LIBDIR_PC ?= $(PREFIX)/lib/probecost
build/obj/src/workloads/lttng.o build/san/src/workloads/lttng.o: \
	BASE_CFLAGS += -DPCOST_LIBDIR='"$(LIBDIR_PC)"'

