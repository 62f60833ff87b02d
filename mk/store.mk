# store: the importer's libFuzzer target.
#   make fuzz-import                  build build/fuzz/fuzz_import
#   make fuzz-import-run FUZZ_SECS=N  run it N seconds (default 20) on tests/fuzz/import_corpus
# The corpus holds small real exports (run, probes, counters) and a few near misses.

STORE_FUZZ_CC   ?= clang
STORE_FUZZ_SECS ?= $(or $(FUZZ_SECS),20)
STORE_FUZZ_SRCS := tests/fuzz/fuzz_import.c src/store/import.c src/store/session_json.c \
		   src/store/columns.c src/core/result.c src/core/costs.c src/core/util.c

build/fuzz/fuzz_import: $(STORE_FUZZ_SRCS) src/store/store.h src/store/columns.h src/core/result.h
	@mkdir -p $(dir $@)
	@echo "  FUZZ-CC $@"; $(STORE_FUZZ_CC) -g -O1 -std=gnu11 -D_GNU_SOURCE -Isrc \
		-fsanitize=fuzzer,address,undefined -o $@ $(STORE_FUZZ_SRCS) -lcjson -lm

fuzz-import: build/fuzz/fuzz_import

fuzz-import-run: build/fuzz/fuzz_import
	@mkdir -p build/fuzz/import_work
	build/fuzz/fuzz_import -max_total_time=$(STORE_FUZZ_SECS) -max_len=65536 -rss_limit_mb=1024 \
		-print_final_stats=1 build/fuzz/import_work tests/fuzz/import_corpus

.PHONY: fuzz-import fuzz-import-run
