# probes: the stanford workload's five probe variants and the SDT fuzzer.
#
# src/probes/stanford/kernels.c is compiled once per variant with
# -DSTANFORD_VARIANT_<v> into build/{obj,san}/stanford/kernels_<v>.o (each
# defines pcost_stanford_<v>), so every variant lives in the probecost binary.
# The semaphore variants take their macros from `dtrace -h` and their
# semaphores from `dtrace -G` (systemtap-sdt-dev) on a per-variant copy of
# stanford.d whose provider is renamed stanford_<v>.

STANFORD_VARIANTS := none plain volatile plain_sem volatile_sem
STANFORD_SEM      := plain_sem volatile_sem
STANFORD_SRC      := src/probes/stanford/kernels.c
STANFORD_D        := src/probes/stanford/stanford.d
STANFORD_HDRS     := $(STANFORD_SEM:%=build/gen/stanford_%.h)
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

build/obj/stanford/kernels_%.o: $(STANFORD_SRC) $(STANFORD_HDRS) src/probes/stanford/stanford.h
	@mkdir -p $(dir $@)
	@echo "  CC $@"; $(CC) $(BASE_CFLAGS) $(CFLAGS) -DSTANFORD_VARIANT_$* -c -o $@ $<

build/san/stanford/kernels_%.o: $(STANFORD_SRC) $(STANFORD_HDRS) src/probes/stanford/stanford.h
	@mkdir -p $(dir $@)
	@echo "  CC $@"; $(CC) $(BASE_CFLAGS) $(SAN_FLAGS) -DSTANFORD_VARIANT_$* -c -o $@ $<

.PRECIOUS: build/gen/stanford_%.d build/gen/stanford_%.h
