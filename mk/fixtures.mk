# fixtures: small binaries the tests take known answers from (x86-64).
#
#   build/fixtures/redzone   tests/fixtures/redzone/: SDT sites in functions that keep
#                            data below rsp across them or not (probes/site_safety.c)
#   build/fixtures/sdtsem    tests/fixtures/sdtsem/: four SDT probes behind semaphores that
#                            print their own hits (run/evcount_sdt.c, run --count)
FIXTURES := build/fixtures/redzone build/fixtures/sdtsem

build/fixtures/redzone: tests/fixtures/redzone/redzone.S tests/fixtures/redzone/main.c
	@mkdir -p $(dir $@)
	@echo "  CC $@"; $(CC) -O2 -o $@ $^

build/fixtures/sdtsem: tests/fixtures/sdtsem/main.c
	@mkdir -p $(dir $@)
	@echo "  CC $@"; $(CC) -O2 -o $@ $^

fixtures: $(FIXTURES)
check-tests: $(FIXTURES)
# Order-only: the unit test reads the fixture, it does not link it.
build/tests/test_site_safety build/san/tests/test_site_safety: | $(FIXTURES)
build/tests/test_evcount build/san/tests/test_evcount: | $(FIXTURES)

.PHONY: fixtures
