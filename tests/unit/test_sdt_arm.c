// SPDX-License-Identifier: MIT
/*
 * test_sdt_arm: arm this test program's own stanford_plain_sem:towers probe
 * with each in-kernel method; the semaphore goes to 1 while armed and back to
 * 0 after, and the hits of an in-process run are counted exactly.  Needs root.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "machine_facts.h"
#include "probes/arm.h"
#include "probes/sdt.h"
#include "workloads/stanford.h"

/* Defined by dtrace -G (build/obj/stanford/sem_plain_sem.o). */
extern volatile unsigned short stanford_plain_sem_towers_semaphore;

/*
 * Whether m can arm here comes from the machine's facts (root, and the uprobe
 * PMU or tracefs); never from pcost_probe_method_available(), which must
 * then agree.
 */
static void arm_with(const struct pcost_probe_method *m, bool (*fact)(char *why, size_t len))
{
	char self[PATH_MAX], err[256] = "", why[256];
	struct pcost_sdt_list l;
	struct pcost_probe_site sites[4] = { 0 };
	struct pcost_run_sample smp = { .monitor_events = -1 };
	struct pcost_monitor *mon;
	uint64_t hits[PCOST_SK_N];
	size_t idx[4], n;
	ssize_t len;

	if (!fact_root(why, sizeof(why)) || !fact(why, sizeof(why))) {
		printf("# skip %s: %s\n", m->name, why);
		skip();
	}
	if (!pcost_probe_method_available(m, why, sizeof(why)))
		fail_msg("%s: unavailable where the machine allows it: %s", m->name, why);
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	assert_true(len > 0);
	self[len] = '\0';
	assert_true(pcost_sdt_path_ok(self)); /* the build tree's path: letters, digits, /._- */
	assert_int_equal(pcost_sdt_read(self, &l), 0);
	n = pcost_sdt_find(&l, "stanford_plain_sem", "towers", idx, 4);
	assert_true(n >= 1 && n <= 4);
	for (size_t i = 0; i < n; i++) {
		const struct pcost_sdt_probe *p = &l.probes[idx[i]];

		snprintf(sites[i].provider, sizeof(sites[i].provider), "%s", p->provider);
		snprintf(sites[i].name, sizeof(sites[i].name), "%s", p->name);
		sites[i].pc_offset = p->pc_offset;
		sites[i].sem_offset = p->sem_offset;
	}
	pcost_sdt_list_release(&l);
	mon = pcost_probe_arm_create(m, self, sites, n, err, sizeof(err));
	assert_non_null(mon);
	assert_int_equal(stanford_plain_sem_towers_semaphore, 0);
	assert_int_equal(mon->ops->prepare(mon, err, sizeof(err)), 0);
	assert_int_equal(mon->ops->start(mon, 5000000000ull, err, sizeof(err)), 0);
	/* The kernel incremented our semaphore when it installed the probe. */
	assert_int_equal(stanford_plain_sem_towers_semaphore, 1);
	assert_int_equal(pcost_stanford_run(3, 1u << PCOST_SK_TOWERS, 2, hits), -1);
	assert_int_equal(mon->ops->stop(mon, &smp), 0);
	assert_int_equal(smp.monitor_events, 2 * 16383);
	assert_int_equal(stanford_plain_sem_towers_semaphore, 0);
	pcost_monitor_free(mon);
	assert_int_equal(stanford_plain_sem_towers_semaphore, 0);
}

static void uprobe_pmu(void **state)
{
	(void)state;
	arm_with(&pcost_probe_uprobe, fact_uprobe_pmu);
}

static void ftrace_instance(void **state)
{
	(void)state;
	arm_with(&pcost_probe_ftrace, fact_tracefs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(uprobe_pmu),
		cmocka_unit_test(ftrace_instance),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
