// SPDX-License-Identifier: MIT
/*
 * spin: N events of busy work of a known length, timed by the workload itself;
 * the known answer of bench/coverage.sh and bench/drift.sh.  Each event spins
 * work=W ns on CLOCK_MONOTONIC; with PCOST_INJECT_EVENT_NS=D in the
 * environment (the inject monitor, or env) each event also spins D ns, and
 * with PCOST_INJECT_FIXED_NS=F it spins F ns once before the timed region;
 * both scaled by a factor the run draws, and a hiccup spun once mid-run
 * (injected.h: the monitor's cost varies from run to run).
 * The injected spins are timed one by one and reported, so the true cost of
 * what was injected is known per run, load included: a preemption inside a
 * spin lengthens it, as it would lengthen the monitor's work.  So is the set-up
 * only an injected run does (injected_setup_ns: reading its costs, drawing its
 * factor, whose first log/cos/sqrt bind and fault in libm, and timing the
 * clock; bench/results/coverage.md), part of what the monitor adds once per run.  With
 * PCOST_SPIN_LOG=PATH each run also appends its facts to PATH (the harnesses
 * read them: the runner keeps only events and the timed region; washout=1 marks
 * a run of --washout's, which PROBECOST_WASHOUT in its environment says).
 *
 * Check: none of its own (it computes nothing: its timings are its output).
 * PCOST_INJECT_FAULT (the inject monitor's fault=) makes it fail after its
 * timed region, the known answer of outcomes: segv writes to address 8 (the
 * first page, never mapped) in spin_fault(), exit exits 3, check reports
 * check=bad.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workloads/timed.h"
#include "workloads/injected.h"
#include "workloads/workload.h"

/*
 * One clock read: the least of 16 batches of 64.  A timed spin costs its
 * measured span plus about one read (the first read's latency falls before
 * t0, the last one's partly after t), so that is added to each injected spin.
 */
static pcost_ns clock_read_ns(void)
{
	pcost_ns best = UINT64_MAX;

	for (int b = 0; b < 16; b++) {
		pcost_ns t0 = pcost_now_ns(), t1;

		for (int i = 0; i < 63; i++)
			pcost_now_ns();
		t1 = pcost_now_ns();
		if ((t1 - t0) / 64 < best)
			best = (t1 - t0) / 64;
	}
	return best;
}

/* One line of facts appended to $PCOST_SPIN_LOG (O_APPEND: concurrent runs do not mix lines). */
static void log_facts(const char *facts)
{
	const char *path = getenv("PCOST_SPIN_LOG");
	int fd;

	if (!path || !*path)
		return;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	if (write(fd, facts, strlen(facts)) < 0)
		(void)0; /* facts for a harness: a full disk loses them, the run stands */
	close(fd);
}

/*
 * A write to address 8, in the first page, which is never mapped: SIGSEGV here,
 * at address 0x8.  Not a null pointer, which the sanitizer build's UBSan would
 * catch first (and exit 1); the compiler cannot see it coming (volatile).
 */
static __attribute__((noinline, noclone)) void spin_fault(int *volatile *where)
{
	**where = 1;
}

/* PCOST_INJECT_FAULT: fail as asked (segv and exit do not return). */
static void inject_fault(struct pcost_wl_result *res)
{
	static int *volatile first_page = (int *)8;
	const char *f = getenv("PCOST_INJECT_FAULT");

	if (!f || !*f)
		return;
	if (!strcmp(f, "segv"))
		spin_fault(&first_page);
	if (!strcmp(f, "exit"))
		exit(3);
	pcost_wl_check(res, false, "PCOST_INJECT_FAULT=%.40s: failing as asked", f);
}

static int spin_run(const struct pcost_params *p, struct pcost_wl_result *res)
{
	uint64_t loops = pcost_param_get(p, "loops"), work = pcost_param_get(p, "work");
	struct pcost_wl_injected j;
	pcost_ns rd = 0, setup = 0, fixed_spun, inj_spun = 0, hiccup_spun = 0, t0, t1;
	char line[360];

	t0 = pcost_now_ns();
	pcost_wl_injected_draw(&j);
	if (pcost_wl_injected_any(&j)) {
		rd = clock_read_ns();
		setup = pcost_now_ns() - t0 + rd;
	}
	fixed_spun = j.fixed_ns ? pcost_wl_spin_ns(j.fixed_ns) + rd : 0;
	t0 = pcost_now_ns();
	for (uint64_t i = 0; i < loops; i++) {
		pcost_wl_spin_ns(work);
		if (j.event_ns)
			inj_spun += pcost_wl_spin_ns(j.event_ns) + rd;
		if (j.hiccup_ns && i == loops / 2)
			hiccup_spun = pcost_wl_spin_ns(j.hiccup_ns) + rd;
	}
	t1 = pcost_now_ns();
	res->events = loops;
	res->timed_ns = t1 - t0;
	snprintf(res->extra, sizeof(res->extra),
		 " injected_event_ns=%llu injected_fixed_ns=%llu injected_hiccup_ns=%llu"
		 " injected_setup_ns=%llu",
		 (unsigned long long)inj_spun, (unsigned long long)fixed_spun,
		 (unsigned long long)hiccup_spun, (unsigned long long)setup);
	snprintf(line, sizeof(line),
		 "events=%llu timed_ns=%llu injected_event_ns=%llu "
		 "injected_fixed_ns=%llu injected_hiccup_ns=%llu injected_setup_ns=%llu "
		 "factor=%.6f inject=%d washout=%d\n",
		 (unsigned long long)loops, (unsigned long long)res->timed_ns,
		 (unsigned long long)inj_spun, (unsigned long long)fixed_spun,
		 (unsigned long long)hiccup_spun, (unsigned long long)setup, j.factor,
		 getenv("PCOST_INJECT_EVENT_NS") || getenv("PCOST_INJECT_FIXED_NS"),
		 getenv("PROBECOST_WASHOUT") != NULL);
	log_facts(line);
	inject_fault(res);
	return 0;
}

static const struct pcost_param_desc spin_params[] = {
	{ "loops", PCOST_PARAM_U64, 20000, 1, 1000000000ULL, NULL, "events" },
	{ "work", PCOST_PARAM_U64, 1000, 0, 10000000, NULL, "ns of busy work per event" },
	{ 0 },
};

const struct pcost_workload pcost_wl_spin = {
	.name = "spin",
	.summary = "N events of W ns busy work, plus the inject monitor's known costs (timed)",
	.unit = "event",
	.size_key = "loops",
	.params = spin_params,
	.run = spin_run,
};
