# monitors: the delay:ns=N calibration shim (src/monitors/delay.c), an LD_PRELOAD library
# built beside the binary (build/libprobecost-delay.so) and installed in
# $(PREFIX)/lib/probecost/, where src/monitors/delay.c looks for it.
DELAY_SHIM := build/libprobecost-delay.so
LIBDIR_PC  ?= $(PREFIX)/lib/probecost

$(DELAY_SHIM): lib/delay-shim.c
	@mkdir -p $(dir $@)
	@echo "  CC $@"; $(CC) -std=gnu11 -O2 -fPIC -shared $(WARN) -o $@ $< -ldl

all: $(DELAY_SHIM)
check: $(DELAY_SHIM)
build/obj/src/monitors/delay.o build/san/src/monitors/delay.o: \
	BASE_CFLAGS += -DPCOST_LIBDIR='"$(LIBDIR_PC)"'

INSTALL_FILES += $(DELAY_SHIM):$(LIBDIR_PC)/libprobecost-delay.so:0755
INSTALL_DIRS  += $(LIBDIR_PC)
