# outcome: probes/where.c names where a workload died, the instruction disassembled by
# Capstone (libcapstone-dev).
LDLIBS += $(shell $(PKG_CONFIG) --libs capstone 2>/dev/null || echo -lcapstone)
