// SPDX-License-Identifier: MIT
/*
 * test_counters_mmap: the seqlock read of a perf_event user page against a
 * synthetic page (no PMU needed): rdpmc index and width, time_enabled /
 * time_running advanced from the TSC, retry when the sequence moves, scaling.
 * Expected values are worked by hand from the formulas in linux/perf_event.h.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "probecost/counters.h"

struct fake {
	struct perf_event_mmap_page *pc;
	uint64_t pmc;	       /* what rdpmc returns */
	uint64_t tsc;	       /* what rdtsc returns */
	unsigned last_counter; /* argument rdpmc saw */
	int rdpmc_calls;
	int bump_on_first; /* simulate a kernel update during the first pass */
};

static uint64_t fake_rdpmc(unsigned counter, void *ctx)
{
	struct fake *f = ctx;

	f->last_counter = counter;
	if (f->rdpmc_calls++ == 0 && f->bump_on_first) {
		/* The kernel rewrote the page while we read it: lock moves, offset changes. */
		f->pc->lock += 2;
		f->pc->offset = 5000;
	}
	return f->pmc;
}

static uint64_t fake_rdtsc(void *ctx)
{
	return ((struct fake *)ctx)->tsc;
}

static void page_init(struct perf_event_mmap_page *pc)
{
	memset(pc, 0, sizeof(*pc));
	pc->lock = 2;
	pc->offset = 1000;
	pc->time_enabled = 500;
	pc->time_running = 500;
}

static void test_index_zero_is_refused(void **state)
{
	struct perf_event_mmap_page pc;
	struct fake f = { .pc = &pc };
	struct pcost_mmap_hooks h = { fake_rdpmc, fake_rdtsc, &f };
	uint64_t cnt, ena, run;

	page_init(&pc);
	pc.cap_user_rdpmc = 1;
	pc.index = 0; /* every software event, every PMU-less machine */
	assert_int_equal(pcost_mmap_read_page(&pc, &h, &cnt, &ena, &run), -EOPNOTSUPP);
	assert_int_equal(f.rdpmc_calls, 0);
	assert_int_equal(cnt, 1000);

	pc.index = 3;
	pc.cap_user_rdpmc = 0; /* rdpmc disabled by /sys/.../rdpmc */
	assert_int_equal(pcost_mmap_read_page(&pc, &h, &cnt, &ena, &run), -EOPNOTSUPP);
	assert_int_equal(f.rdpmc_calls, 0);
}

static void test_rdpmc_index_and_width(void **state)
{
	struct perf_event_mmap_page pc;
	struct fake f = { .pc = &pc };
	struct pcost_mmap_hooks h = { fake_rdpmc, fake_rdtsc, &f };
	uint64_t cnt, ena, run;

	page_init(&pc);
	pc.cap_user_rdpmc = 1;
	pc.index = 3; /* hardware counter 2 */
	pc.pmc_width = 48;
	f.pmc = 0xdead000000000010ull; /* bits above 48 are garbage, low 48 = +16 */
	assert_int_equal(pcost_mmap_read_page(&pc, &h, &cnt, &ena, &run), 0);
	assert_int_equal(f.last_counter, 2);
	assert_int_equal(cnt, 1000 + 16);

	/* A 48-bit counter that wrapped below its start reads negative: sign-extend. */
	f.pmc = 0x0000fffffffffff0ull; /* -16 in 48 bits */
	assert_int_equal(pcost_mmap_read_page(&pc, &h, &cnt, &ena, &run), 0);
	assert_int_equal(cnt, 1000 - 16);
	assert_int_equal(ena, 500);
	assert_int_equal(run, 500);
}

static void test_time_advanced_from_tsc(void **state)
{
	struct perf_event_mmap_page pc;
	struct fake f = { .pc = &pc };
	struct pcost_mmap_hooks h = { fake_rdpmc, fake_rdtsc, &f };
	uint64_t cnt, ena, run;

	page_init(&pc);
	pc.cap_user_rdpmc = 1;
	pc.cap_user_time = 1;
	pc.index = 1;
	pc.pmc_width = 48;
	pc.time_enabled = 500;
	pc.time_running = 250; /* multiplexed: enabled != running, so time is advanced */
	pc.time_shift = 10;
	pc.time_mult = 2048; /* 2 ns per cycle */
	pc.time_offset = 100;
	/* cyc = 5 * 1024 + 3: quot = 5, rem = 3;
	 * delta = 100 + 5 * 2048 + (3 * 2048 >> 10) = 100 + 10240 + 6 = 10346 */
	f.tsc = 5 * 1024 + 3;
	f.pmc = 7;
	assert_int_equal(pcost_mmap_read_page(&pc, &h, &cnt, &ena, &run), 0);
	assert_int_equal(ena, 500 + 10346);
	assert_int_equal(run, 250 + 10346);
	assert_int_equal(cnt, 1007);
	/* value = count * enabled / running */
	assert_int_equal(pcost_counter_scale(cnt, ena, run), 1007ull * 10846 / 10596);

	/* A short clock: cyc = time_cycles + ((cyc - time_cycles) & time_mask).
	 * tsc = 0x1_0000_1403, time_cycles = 0x1000, mask 0xffff:
	 * (0x1_0000_1403 - 0x1000) & 0xffff = 0x403, cyc = 0x1403 = 5 * 1024 + 3 as above. */
	pc.cap_user_time_short = 1;
	pc.time_cycles = 0x1000;
	pc.time_mask = 0xffff;
	f.tsc = 0x100001403ull;
	assert_int_equal(pcost_mmap_read_page(&pc, &h, &cnt, &ena, &run), 0);
	assert_int_equal(ena, 500 + 10346);
	assert_int_equal(run, 250 + 10346);
	pc.cap_user_time_short = 0;

	/* Not multiplexed (enabled == running): no TSC read needed, times as on the page. */
	pc.time_running = 500;
	f.tsc = 0;
	assert_int_equal(pcost_mmap_read_page(&pc, &h, &cnt, &ena, &run), 0);
	assert_int_equal(ena, 500);
	assert_int_equal(run, 500);
}

static void test_seqlock_retries(void **state)
{
	struct perf_event_mmap_page pc;
	struct fake f = { .pc = &pc, .bump_on_first = 1 };
	struct pcost_mmap_hooks h = { fake_rdpmc, fake_rdtsc, &f };
	uint64_t cnt, ena, run;

	page_init(&pc);
	pc.cap_user_rdpmc = 1;
	pc.index = 2;
	pc.pmc_width = 64;
	f.pmc = 1;
	assert_int_equal(pcost_mmap_read_page(&pc, &h, &cnt, &ena, &run), 0);
	/* First pass saw offset 1000 but the lock moved: the value is from the second pass. */
	assert_int_equal(f.rdpmc_calls, 2);
	assert_int_equal(cnt, 5001);
}

static void test_scale(void **state)
{
	assert_int_equal(pcost_counter_scale(100, 200, 50), 400);
	assert_int_equal(pcost_counter_scale(100, 200, 0), 100); /* never ran: raw */
	assert_int_equal(pcost_counter_scale(100, 200, 200), 100);
	/* No overflow in the product: 2^62 * 4 / 2 = 2^63 */
	assert_true(pcost_counter_scale(1ull << 62, 4, 2) == 1ull << 63);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_index_zero_is_refused),
		cmocka_unit_test(test_rdpmc_index_and_width),
		cmocka_unit_test(test_time_advanced_from_tsc),
		cmocka_unit_test(test_seqlock_retries),
		cmocka_unit_test(test_scale),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
