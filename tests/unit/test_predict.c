// SPDX-License-Identifier: MIT
/*
 * test_predict: the cost model on known terms.  Reference values were
 * computed apart from this code in Python 3.11 with mpmath 1.3 (t quantiles
 * by findroot on the regularized incomplete beta function): the script is in
 * the comment of test_combine_known.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/costs.h"
#include "stats/predict.h"

static void near(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.15g, want %.15g (tol %g)", got, want, tol);
}

static void entry(struct pcost_cost_table *t, const char *subject, enum pcost_cost_event ev,
		  double ns, double lo, double hi, double df)
{
	struct pcost_cost_entry *e = pcost_cost_add(t, subject, "monitor", ev, "test", "given");

	e->status = PCOST_COST_MEASURED;
	e->ns = ns;
	e->lo = lo;
	e->hi = hi;
	e->df = df;
}

static void counts_init(struct pcost_counts *c)
{
	memset(c, 0, sizeof(*c));
	for (int k = 0; k < PCOST_CNT_N; k++)
		c->n[k] = NAN;
}

/* strace's four terms: F 2 ms, 7 us/syscall, 1 us/switch, 200 us/task, all with df 4. */
static void strace_table(struct pcost_cost_table *t)
{
	pcost_cost_table_init(t);
	entry(t, "strace", PCOST_CE_RUN, 2e6, 1.8e6, 2.2e6, 4);
	entry(t, "strace", PCOST_CE_SYSCALL, 7000, 6500, 7500, 4);
	entry(t, "strace", PCOST_CE_SYSCALL_DECODED, 9000, 8500, 9500, 4);
	entry(t, "strace", PCOST_CE_SYSCALL_DIR, 30000, 25000, 35000, 4);
	entry(t, "strace", PCOST_CE_CSWITCH, 1000, 500, 1500, 4);
	entry(t, "strace", PCOST_CE_TASK, 2e5, 1.5e5, 2.5e5, 4);
	entry(t, "strace", PCOST_CE_EXEC, 5e5, 4e5, 6e5, 4);
	entry(t, "strace", PCOST_CE_STOP_AFTER_WORK, 8e4, 7e4, 9e4, 4);
}

/* bpftrace-syscalls' four terms: F 5 ms, 500/800/900 ns a call by class. */
static void bpftrace_entries(struct pcost_cost_table *t)
{
	entry(t, "bpftrace-syscalls", PCOST_CE_RUN, 5e6, 4e6, 6e6, 4);
	entry(t, "bpftrace-syscalls", PCOST_CE_SYSCALL, 500, 400, 600, 4);
	entry(t, "bpftrace-syscalls", PCOST_CE_SYSCALL_DECODED, 800, 700, 900, 4);
	entry(t, "bpftrace-syscalls", PCOST_CE_SYSCALL_DIR, 900, 800, 1000, 4);
}

/* strace-seccomp's seven terms: F 1 ms, traced 8/10/30 us by class, untraced 50 ns. */
static void seccomp_entries(struct pcost_cost_table *t)
{
	entry(t, "strace-seccomp", PCOST_CE_RUN, 1e6, 0.9e6, 1.1e6, 4);
	entry(t, "strace-seccomp", PCOST_CE_SYSCALL, 8000, 7000, 9000, 4);
	entry(t, "strace-seccomp", PCOST_CE_SYSCALL_DECODED, 10000, 9000, 11000, 4);
	entry(t, "strace-seccomp", PCOST_CE_SYSCALL_DIR, 30000, 20000, 40000, 4);
	entry(t, "strace-seccomp", PCOST_CE_SYSCALL_UNTRACED, 50, 40, 60, 4);
	entry(t, "strace-seccomp", PCOST_CE_TASK, 1e5, 0.9e5, 1.1e5, 4);
	entry(t, "strace-seccomp", PCOST_CE_EXEC, 3e5, 2e5, 4e5, 4);
	entry(t, "strace-seccomp", PCOST_CE_STOP_AFTER_WORK, 7e4, 6e4, 8e4, 4);
}

static void strace_counts(struct pcost_counts *c)
{
	counts_init(c);
	c->n[PCOST_CNT_SYSCALLS] = 41000;
	c->se[PCOST_CNT_SYSCALLS] = 0;
	c->n[PCOST_CNT_CSWITCHES] = 100;
	c->se[PCOST_CNT_CSWITCHES] = 10;
	c->n[PCOST_CNT_TASKS] = 2;
	c->se[PCOST_CNT_TASKS] = 0;
	/* No exec: the exec term is there at 0 and changes no figure. */
	c->n[PCOST_CNT_EXECS] = 0;
	c->se[PCOST_CNT_EXECS] = 0;
	/* No CPU time between calls: no stop follows work (test_stops_after_work prices them). */
	c->n[PCOST_CNT_TASK_CLOCK_NS] = 0;
	c->se[PCOST_CNT_TASK_CLOCK_NS] = 0;
	/* Counted by name, none of the decoded kinds: every syscall is getppid's kind. */
	c->by_nr_counted = true;
	c->df = 2;
	c->base_ns = 1e9;
	c->base_se = 1e7;
	c->base_df = 2;
}

/*
 * The mpmath script:
 *   tq = lambda df: findroot(lambda t: betainc(df/2, .5, 0, df/(df+t*t), regularized=True)
 *                            - .05, 2.0)
 *   terms (count, count_se, cost, lo, hi, df): (1,0,2e6,1.8e6,2.2e6,4), (41000,0,7000,6500,
 *   7500,4), (100,10,1000,500,1500,4), (2,0,2e5,1.5e5,2.5e5,4); count df 2
 *   se = (hi-lo)/2/tq(df); v += [n^2 se^2, c^2 nse^2, se^2 nse^2]; df += [df, 2, min(df, 2)]
 *   E = 289.5e6, sd 7384010.5174595, df 4.00101458107784 -> [269000750.26, 309999249.74]
 *   O = E/1e9 with T0 se 1e7 (df 2): se 0.00793124431107459, df 5.0852051483284
 *   -> [0.269214408651793, 0.309785591348207]
 */
static void test_combine_known(void **state)
{
	struct pcost_cost_table t;
	struct pcost_counts c;
	struct pcost_prediction p;

	(void)state;
	strace_table(&t);
	strace_counts(&c);
	pcost_predict(&t, "strace", &c, &p);
	assert_true(p.has_model);
	/*
	 * The decoded, listing, exec and stop-after-work terms are there, at 0: the
	 * figures are the four terms'.
	 */
	assert_int_equal(p.nterms, 8);
	near(p.extra_ns, 289.5e6, 1e-3);
	near(p.extra_se, 7384010.517459534, 1e-3);
	near(p.extra_df, 4.0010145810778415, 1e-9);
	near(p.extra_lo, 269000750.258585, 1);
	near(p.extra_hi, 309999249.741415, 1);
	near(p.overhead, 0.2895, 1e-12);
	near(p.overhead_se, 0.007931244311074587, 1e-12);
	near(p.overhead_df, 5.0852051483283995, 1e-9);
	near(p.overhead_lo, 0.26921440865179297, 1e-9);
	near(p.overhead_hi, 0.309785591348207, 1e-9);
	/* The syscalls dominate: 287 ms of 289.5. */
	assert_int_equal(p.terms[p.dominant].event, PCOST_CE_SYSCALL);
	near(p.terms[p.dominant].share, 287e6 / 289.5e6, 1e-12);
	near(p.terms[p.dominant].extra_ns, 287e6, 1e-6);
	pcost_cost_table_release(&t);
}

/*
 * Tasks side by side: with the plain run's CPU time twice its wall time, each
 * event term adds half its count x cost to the wall time, and half its sd;
 * the fixed cost stays whole.  A parallelism under 1 (a task that waits) is 1.
 */
static void test_parallel(void **state)
{
	struct pcost_cost_table t;
	struct pcost_counts c;
	struct pcost_prediction one, two, under;
	double f = 2e6,
	       se_f = pcost_cost_se(&(struct pcost_cost_entry){ .status = PCOST_COST_MEASURED,
								.ns = 2e6,
								.lo = 1.8e6,
								.hi = 2.2e6,
								.df = 4 });

	(void)state;
	strace_table(&t);
	strace_counts(&c);
	pcost_predict(&t, "strace", &c, &one);
	c.parallel = 2;
	pcost_predict(&t, "strace", &c, &two);
	c.parallel = 0.4;
	pcost_predict(&t, "strace", &c, &under);
	near(two.extra_ns, f + (289.5e6 - f) / 2, 1e-3);
	near(two.extra_se * two.extra_se,
	     se_f * se_f + (one.extra_se * one.extra_se - se_f * se_f) / 4, 1e3);
	near(two.overhead, two.extra_ns / 1e9, 1e-12);
	assert_int_equal(two.terms[0].event, PCOST_CE_RUN);
	near(two.terms[0].overlap, 1, 0);
	for (size_t i = 1; i < two.nterms; i++)
		near(two.terms[i].overlap, 0.5, 0);
	near(under.extra_ns, one.extra_ns, 1e-6);
	near(under.extra_se, one.extra_se, 1e-6);
	pcost_cost_table_release(&t);
}

/*
 * A ptrace stop is a wait: strace's event terms overlap by the tasks alive at
 * once (C) where that is more than P; a BPF program's (bpftrace) and
 * strace-seccomp's untraced calls (the filter, CPU) by P; C under P is P.
 */
static void test_wait_overlap(void **state)
{
	struct pcost_cost_table t;
	struct pcost_counts c;
	struct pcost_prediction st, bt, sc, low;

	(void)state;
	strace_table(&t);
	bpftrace_entries(&t);
	seccomp_entries(&t);
	strace_counts(&c);
	c.parallel = 1.25;
	c.concurrency = 2;
	pcost_predict(&t, "strace", &c, &st);
	pcost_predict(&t, "bpftrace-syscalls", &c, &bt);
	pcost_predict(&t, "strace-seccomp:trace=getppid", &c, &sc);
	assert_true(st.has_model && bt.has_model && sc.has_model);
	/* strace: F whole, the rest of the known 289.5 ms over C = 2. */
	near(st.terms[0].overlap, 1, 0);
	for (size_t i = 1; i < st.nterms; i++)
		near(st.terms[i].overlap, 0.5, 0);
	near(st.extra_ns, 2e6 + 287.5e6 / 2, 1e-3);
	/* bpftrace: 41,000 x 500 ns over P = 1.25, F whole. */
	near(bt.terms[1].overlap, 0.8, 1e-15);
	near(bt.extra_ns, 5e6 + 41000 * 500 / 1.25, 1e-3);
	/* strace-seccomp: its traced terms wait (C), its untraced calls run the filter (P). */
	for (size_t i = 1; i < sc.nterms; i++)
		near(sc.terms[i].overlap,
		     sc.terms[i].event == PCOST_CE_SYSCALL_UNTRACED ? 0.8 : 0.5, 1e-15);
	/*
	 * The machine's other processes fill the spare 0.75 CPU of 2: the one
	 * tracer queues at each stop and the waits add up (1, not 1 / P); half
	 * filled, C = 1 + (2 - 1) x 0.5; unmeasured, as an idle machine.
	 */
	c.cpus = 2;
	c.others = 0.75;
	near(pcost_spare_idle(&c), 0, 0);
	pcost_predict(&t, "strace", &c, &low);
	near(low.terms[1].overlap, 1, 1e-15);
	near(low.terms[0].overlap, 1, 0);
	pcost_predict(&t, "bpftrace-syscalls", &c, &bt);
	near(bt.terms[1].overlap, 0.8, 1e-15);
	c.others = 0.375;
	near(pcost_spare_idle(&c), 0.5, 1e-15);
	pcost_predict(&t, "strace", &c, &low);
	near(low.terms[1].overlap, 1 / 1.5, 1e-15);
	c.others = NAN;
	near(pcost_spare_idle(&c), 1, 0);
	/* A run that fills the CPUs itself: the spare is taken as 0.05 CPU. */
	c.parallel = 2;
	c.others = 0.025;
	near(pcost_spare_idle(&c), 0.5, 1e-12);
	c.parallel = 1.25;
	c.others = NAN;
	c.concurrency = 1.1;
	pcost_predict(&t, "strace", &c, &low);
	near(low.terms[1].overlap, 0.8, 1e-15);
	c.concurrency = NAN;
	pcost_predict(&t, "strace", &c, &low);
	near(low.terms[1].overlap, 0.8, 1e-15);
	pcost_cost_table_release(&t);
}

/*
 * The table's conditions against the plain runs': a ptrace tracer (its stops
 * priced) is warned about from PCOST_OTHERS_APART CPUs apart either way; a
 * BPF tracer, a gap under it, or a figure not measured is not.
 */
static void test_conditions(void **state)
{
	struct pcost_cost_table t;
	struct pcost_counts c;
	struct pcost_prediction p[2];
	char msg[512];

	(void)state;
	strace_table(&t);
	bpftrace_entries(&t);
	strace_counts(&c);
	pcost_predict(&t, "bpftrace-syscalls", &c, &p[0]);
	pcost_predict(&t, "strace", &c, &p[1]);
	assert_true(p[0].has_model && p[1].has_model);
	assert_true(pcost_predict_conditions(p, 2, 1.05, 0.02, msg, sizeof(msg)));
	assert_non_null(strstr(msg, "runs had 0.02 CPUs taken by other processes, these plain "
				    "runs 1.05"));
	assert_non_null(strstr(msg, "the figures of strace hold"));
	assert_null(strstr(msg, "bpftrace"));
	assert_true(pcost_predict_conditions(p, 2, 0.1, 0.6, msg, sizeof(msg)));
	assert_false(pcost_predict_conditions(p, 2, 0.45, 0.02, msg, sizeof(msg)));
	assert_string_equal(msg, "");
	assert_false(pcost_predict_conditions(p, 1, 1.05, 0.02, msg, sizeof(msg)));
	assert_false(pcost_predict_conditions(p, 2, 1.05, NAN, msg, sizeof(msg)));
	assert_false(pcost_predict_conditions(p, 2, NAN, 0.02, msg, sizeof(msg)));
	pcost_cost_table_release(&t);
}

/*
 * The tasks alive at once from process events: two runs of root 100's
 * children, one with a child process and its thread (21 ms alive over 10),
 * one with a daemon that outlives it (clipped to the run's end: 19 over 10);
 * root's own thread, another process's fork and a run that never ended are
 * not counted: 40 ms alive over 20 ms of wall time.
 */
static void test_task_concurrency(void **state)
{
	const struct pcost_task_event ev[] = {
		{ 0, false, 200, 200, 100 },	{ 0, false, 300, 300, 999 },
		{ 0.5e6, false, 101, 100, 1 },	{ 1e6, false, 201, 201, 200 },
		{ 2e6, false, 202, 201, 200 },	{ 5e6, true, 202, 201, 0 },
		{ 9e6, true, 201, 201, 0 },	{ 10e6, true, 200, 200, 0 },
		{ 20e6, false, 400, 400, 100 }, { 21e6, false, 401, 401, 400 },
		{ 30e6, true, 400, 400, 0 },	{ 35e6, true, 401, 401, 0 },
		{ 40e6, false, 500, 500, 100 },
	};

	(void)state;
	near(pcost_task_concurrency(ev, sizeof(ev) / sizeof(ev[0]), 100), 2.0, 1e-12);
	near(pcost_task_concurrency(ev, 8, 100), 2.1, 1e-12);
	assert_true(isnan(pcost_task_concurrency(ev, 0, 100)));
	assert_true(isnan(pcost_task_concurrency(ev, sizeof(ev) / sizeof(ev[0]), 42)));
}

/*
 * A monitor that watches a service: the same events, no fixed cost (it attaches
 * outside the run), so the extra is the known case's less F = 2 ms and its
 * variance less se_F^2; the event terms stay divided by the parallelism.
 */
static void test_service(void **state)
{
	struct pcost_cost_table t;
	struct pcost_counts c;
	struct pcost_prediction wrap, svc;
	double se_f = pcost_cost_se(&(struct pcost_cost_entry){
		.status = PCOST_COST_MEASURED, .ns = 2e6, .lo = 1.8e6, .hi = 2.2e6, .df = 4 });

	(void)state;
	strace_table(&t);
	strace_counts(&c);
	c.parallel = 2;
	pcost_predict(&t, "strace", &c, &wrap);
	pcost_predict_service(&t, "strace", &c, &svc);
	assert_true(svc.has_model && svc.service && !wrap.service);
	assert_int_equal(svc.nterms, wrap.nterms - 1);
	for (size_t i = 0; i < svc.nterms; i++) {
		assert_int_not_equal(svc.terms[i].event, PCOST_CE_RUN);
		near(svc.terms[i].overlap, 0.5, 0);
	}
	near(svc.extra_ns, (289.5e6 - 2e6) / 2, 1e-3);
	near(svc.extra_se * svc.extra_se, wrap.extra_se * wrap.extra_se - se_f * se_f, 1e3);
	near(svc.overhead, svc.extra_ns / 1e9, 1e-12);
	assert_int_equal(svc.terms[svc.dominant].event, PCOST_CE_SYSCALL);
	pcost_cost_table_release(&t);
}

/* One exact count and exact costs: a zero-width interval at the sum. */
static void test_combine_exact(void **state)
{
	struct pcost_prediction p;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.nterms = 2;
	p.terms[0] = (struct pcost_prediction_term){
		.event = PCOST_CE_RUN, .count = 1, .cost_ns = 500, .cost_se = 0, .cost_df = 4
	};
	p.terms[1] = (struct pcost_prediction_term){
		.event = PCOST_CE_SYSCALL, .count = 1000, .cost_ns = 2, .cost_se = 0, .cost_df = 4
	};
	pcost_predict_combine(&p, 0, 10000, 0, 0);
	near(p.extra_ns, 2500, 1e-9);
	near(p.extra_lo, 2500, 1e-9);
	near(p.extra_hi, 2500, 1e-9);
	near(p.overhead, 0.25, 1e-12);
	assert_int_equal(p.dominant, 1);
	/* No plain time: no overhead, never 0. */
	pcost_predict_combine(&p, 0, NAN, 0, 0);
	assert_true(isnan(p.overhead) && isnan(p.overhead_lo));
}

/* perf record: samples = CPU time x frequency; 2 s of CPU at 999 Hz is 1998 samples. */
static void test_record_samples(void **state)
{
	struct pcost_cost_table t;
	struct pcost_counts c;
	struct pcost_prediction p;

	(void)state;
	pcost_cost_table_init(&t);
	entry(&t, "perf-record:freq=999", PCOST_CE_RUN, 1e8, 0.9e8, 1.1e8, 5);
	entry(&t, "perf-record:freq=999", PCOST_CE_SAMPLE, 3000, 2000, 4000, 5);
	entry(&t, "perf-record:freq=999", PCOST_CE_CSWITCH, 100, 50, 150, 5);
	entry(&t, "perf-record:freq=999", PCOST_CE_TASK, 1e4, 0, 2e4, 5);
	entry(&t, "perf-record:freq=999", PCOST_CE_EXEC, 2e5, 1e5, 3e5, 5);
	counts_init(&c);
	c.n[PCOST_CNT_TASK_CLOCK_NS] = 2e9;
	c.n[PCOST_CNT_CSWITCHES] = 10;
	c.n[PCOST_CNT_TASKS] = 1;
	c.n[PCOST_CNT_EXECS] = 1;
	c.base_ns = 2.5e9;
	pcost_predict(&t, "perf-record:freq=999", &c, &p);
	assert_true(p.has_model);
	/* Terms in the order of the events: run, cswitch, task, exec, sample, then the side-band. */
	assert_int_equal(p.terms[4].event, PCOST_CE_SAMPLE);
	near(p.terms[4].count, 1998, 1e-9);
	/* 2.5 s plain: the side-band window's phase is unknown, half a window less on average. */
	assert_int_equal(p.nterms, 6);
	assert_int_equal(p.terms[5].event, PCOST_CE_SIDEBAND);
	near(p.terms[5].cost_ns, -5e8, 1e-6);
	near(p.terms[5].cost_se, 1e9 / sqrt(12), 1e-3);
	near(p.extra_ns, 1e8 + 1998 * 3000 + 1000 + 1e4 + 2e5 - 5e8, 1e-3);
	/* 0.3 s plain: it ends inside the first window, which is 0.3 s shorter. */
	c.base_ns = 3e8;
	pcost_predict(&t, "perf-record:freq=999", &c, &p);
	near(p.terms[5].cost_ns, -3e8, 1e-6);
	c.base_ns = 2.5e9;
	/* Without a frequency: perf's default, 4000 Hz, priced by the freq=4000 entries. */
	pcost_predict(&t, "perf-record", &c, &p);
	assert_false(p.has_model);
	assert_non_null(strstr(p.why, "no entry"));
	pcost_cost_table_release(&t);
}

/* strace-seccomp: traced calls by name priced at the traced cost, the rest at the untraced. */
static void test_seccomp_split(void **state)
{
	struct pcost_count_nr nr[] = { { "read", 300, 0, 0, 0 },
				       { "write", 200, 0, 0, 0 },
				       { "openat", 10, 0, 0, 0 },
				       { "getppid", 40, 0, 0, 0 },
				       { "getdents64", 5, 0, 0, 0 } };
	struct pcost_cost_table t;
	struct pcost_counts c;
	struct pcost_prediction p;

	(void)state;
	pcost_cost_table_init(&t);
	seccomp_entries(&t);
	counts_init(&c);
	c.n[PCOST_CNT_SYSCALLS] = 1000;
	c.n[PCOST_CNT_TASKS] = 0;
	c.n[PCOST_CNT_EXECS] = 1;
	c.n[PCOST_CNT_TASK_CLOCK_NS] = 0;
	c.by_nr_counted = true;
	c.by_nr = nr;
	c.nby_nr = 5;
	c.base_ns = 1e8;
	/* The set's calls by class (getppid plain; read, openat decoded; getdents64 a listing),
	 * the other 1000 - 355 calls untraced. */
	pcost_predict(&t, "strace-seccomp:trace=read,openat,getppid,getdents64", &c, &p);
	assert_true(p.has_model);
	assert_int_equal(p.terms[1].event, PCOST_CE_SYSCALL);
	near(p.terms[1].count, 40, 1e-12);
	near(p.terms[2].count, 310, 1e-12);
	near(p.terms[3].count, 5, 1e-12);
	assert_int_equal(p.terms[4].event, PCOST_CE_SYSCALL_UNTRACED);
	near(p.terms[4].count, 645, 1e-12);
	near(p.extra_ns, 1e6 + 40 * 8000 + 310 * 10000 + 5 * 30000 + 645 * 50 + 3e5, 1e-6);
	{
		/*
		 * execve stops whatever the set, a failed one too; so does every call of
		 * a task created by the command until its exec (400 here: 250
		 * rt_sigaction, 2 openat, 148 of no name counted), as a plain call
		 * outside the set; the set's own are counted once.
		 */
		struct pcost_count_nr nr2[] = { { "openat", 10, 0, 2, 0 },
						{ "execve", 6, 0, 0, 0 },
						{ "rt_sigaction", 300, 0, 250, 0 },
						{ "read", 300, 0, 0, 0 } };

		c.by_nr = nr2;
		c.nby_nr = 4;
		c.new_task = 400;
		pcost_predict(&t, "strace-seccomp:trace=openat", &c, &p);
		assert_true(p.has_model);
		near(p.terms[1].count, 398, 1e-12);
		near(p.terms[2].count, 16, 1e-12);
		near(p.terms[3].count, 0, 1e-12);
		near(p.terms[4].count, 1000 - 16 - 398, 1e-12);
		/* Without new tasks, only execve is added to the set. */
		c.new_task = 0;
		nr2[0].new_n = nr2[2].new_n = 0;
		pcost_predict(&t, "strace-seccomp:trace=openat", &c, &p);
		near(p.terms[1].count, 0, 1e-12);
		near(p.terms[2].count, 16, 1e-12);
		c.by_nr = nr;
		c.nby_nr = 5;
	}
	/* A class is not priced. */
	pcost_predict(&t, "strace-seccomp:trace=%file", &c, &p);
	assert_false(p.has_model);
	assert_true(isnan(p.extra_ns));
	/* Nor without the counts by name. */
	c.by_nr_counted = false;
	snprintf(c.by_nr_why, sizeof(c.by_nr_why), "no BPF here");
	pcost_predict(&t, "strace-seccomp:trace=read", &c, &p);
	assert_false(p.has_model);
	assert_non_null(strstr(p.why, "no BPF here"));
	pcost_cost_table_release(&t);
}

/* strace traces every call: plain = all less the decoded and the listings, each at its cost. */
static void test_strace_classes(void **state)
{
	struct pcost_count_nr nr[] = { { "newfstatat", 54000, 0, 0, 0 },
				       { "getdents64", 4000, 0, 0, 0 },
				       { "openat", 2000, 0, 0, 0 } };
	struct pcost_cost_table t;
	struct pcost_counts c;
	struct pcost_prediction p;

	(void)state;
	strace_table(&t);
	strace_counts(&c);
	c.n[PCOST_CNT_SYSCALLS] = 66000;
	c.by_nr = nr;
	c.nby_nr = 3;
	pcost_predict(&t, "strace", &c, &p);
	assert_true(p.has_model);
	near(p.terms[1].count, 66000 - 56000 - 4000, 1e-9);
	near(p.terms[2].count, 56000, 1e-9);
	near(p.terms[3].count, 4000, 1e-9);
	near(p.extra_ns, 2e6 + 6000 * 7000 + 56000 * 9000 + 4000 * 30000 + 100 * 1000 + 2 * 2e5,
	     1e-3); /* and 0 execs */
	/* bpftrace's program runs colder after a call that reads memory: by class too. */
	entry(&t, "bpftrace-syscalls", PCOST_CE_RUN, 5e6, 4e6, 6e6, 4);
	entry(&t, "bpftrace-syscalls", PCOST_CE_SYSCALL, 300, 250, 350, 4);
	entry(&t, "bpftrace-syscalls", PCOST_CE_SYSCALL_DECODED, 470, 400, 540, 4);
	entry(&t, "bpftrace-syscalls", PCOST_CE_SYSCALL_DIR, 900, 800, 1000, 4);
	pcost_predict(&t, "bpftrace-syscalls", &c, &p);
	assert_true(p.has_model);
	near(p.extra_ns, 5e6 + 6000 * 300 + 56000 * 470 + 4000 * 900, 1e-3);
	assert_int_equal(pcost_syscall_class("newfstatat"), PCOST_CE_SYSCALL_DECODED);
	assert_int_equal(pcost_syscall_class("getdents64"), PCOST_CE_SYSCALL_DIR);
	assert_int_equal(pcost_syscall_class("getppid"), PCOST_CE_SYSCALL);
	assert_int_equal(pcost_syscall_class("close"), PCOST_CE_SYSCALL);
	pcost_cost_table_release(&t);
}

/* The count of term k with one of c's figures set to v. */
static double count_at(const struct pcost_cost_table *t, const char *monitor,
		       struct pcost_counts *c, double *figure, double v, size_t k)
{
	struct pcost_prediction p;

	*figure = v;
	pcost_predict(t, monitor, c, &p);
	return p.terms[k].count;
}

/*
 * Predict monitor without its entry for ev (a table calibrated before the
 * term: nterms terms), then with one of ns [lo, hi]: the index of its term.
 */
static size_t with_term(struct pcost_cost_table *t, const char *monitor,
			const struct pcost_counts *c, enum pcost_cost_event ev, double ns,
			double lo, double hi, size_t nterms, struct pcost_prediction *without,
			struct pcost_prediction *p)
{
	size_t k;

	pcost_predict(t, monitor, c, without);
	assert_true(without->has_model);
	assert_int_equal(without->nterms, nterms);
	entry(t, monitor, ev, ns, lo, hi, 4);
	pcost_predict(t, monitor, c, p);
	assert_true(p->has_model);
	assert_int_equal(p->nterms, nterms + 1);
	for (k = 0; k < p->nterms && p->terms[k].event != ev; k++)
		;
	assert_true(k < p->nterms);
	return k;
}

/*
 * The decoded calls made beside another tracee: decoded and getdents64 calls
 * x min(C - 1, 1), paid as strace's other waits (over 1 + (C - 1) x I); C not
 * measured: none; a table without the entry: the model without the term.
 */
static void test_stops_shared(void **state)
{
	struct pcost_count_nr nr[] = { { "newfstatat", 30000, 0, 0, 0 },
				       { "getdents64", 2000, 0, 0, 0 } };
	struct pcost_cost_table t;
	struct pcost_counts c;
	struct pcost_prediction without, p;
	size_t k;

	(void)state;
	strace_table(&t);
	strace_counts(&c);
	c.by_nr = nr;
	c.nby_nr = 2;
	c.parallel = 1.2;
	c.concurrency = 1.6;
	k = with_term(&t, "strace", &c, PCOST_CE_STOP_SHARED, -900, -1400, -400, 8, &without, &p);
	near(p.terms[k].count, 32000 * 0.6, 1e-9);
	near(p.terms[k].overlap, 1 / 1.6, 1e-15);
	near(p.extra_ns - without.extra_ns, 32000 * 0.6 * -900 / 1.6, 1e-3);
	/* Two or more alive: every decoded call; none alive beside it, or C unknown: none. */
	near(count_at(&t, "strace", &c, &c.concurrency, 2, k), 32000, 1e-9);
	near(count_at(&t, "strace", &c, &c.concurrency, 1, k), 0, 0);
	near(count_at(&t, "strace", &c, &c.concurrency, NAN, k), 0, 0);
	/* strace-seccomp is not priced so. */
	assert_false(pcost_model_events("strace-seccomp:trace=getppid", NULL) &
		     (1u << PCOST_CE_STOP_SHARED));
	pcost_cost_table_release(&t);
}

/*
 * A BPF program's calls beside another task's: every syscall x min(P - 1, 1),
 * paid over P as its other terms are; P unmeasured or 1: none; a table
 * calibrated before the term: the model without it.  strace is not priced so.
 */
static void test_calls_side_by_side(void **state)
{
	struct pcost_count_nr nr[] = { { "newfstatat", 30000, 0, 0, 0 } };
	struct pcost_cost_table t;
	struct pcost_counts c;
	struct pcost_prediction without, p;
	size_t k;

	(void)state;
	pcost_cost_table_init(&t);
	bpftrace_entries(&t);
	strace_counts(&c);
	c.by_nr = nr;
	c.nby_nr = 1;
	c.parallel = 1.5;
	c.concurrency = 2;
	k = with_term(&t, "bpftrace-syscalls", &c, PCOST_CE_SYSCALL_SHARED, 300, 100, 500, 4,
		      &without, &p);
	near(p.terms[k].count, 41000 * 0.5, 1e-9);
	near(p.terms[k].overlap, 1 / 1.5, 1e-15);
	near(p.extra_ns - without.extra_ns, 41000 * 0.5 * 300 / 1.5, 1e-3);
	/* Two or more side by side: every call; one, or P unknown: none. */
	near(count_at(&t, "bpftrace-syscalls", &c, &c.parallel, 2.4, k), 41000, 1e-9);
	near(count_at(&t, "bpftrace-syscalls", &c, &c.parallel, 1, k), 0, 0);
	near(count_at(&t, "bpftrace-syscalls", &c, &c.parallel, NAN, k), 0, 0);
	/* The syscalls uncounted: no model, and why. */
	c.parallel = 2;
	c.n[PCOST_CNT_SYSCALLS] = NAN;
	snprintf(c.why[PCOST_CNT_SYSCALLS], sizeof(c.why[PCOST_CNT_SYSCALLS]), "no tracefs");
	pcost_predict(&t, "bpftrace-syscalls", &c, &p);
	assert_false(p.has_model);
	/* A ptrace tracer's stops are priced otherwise (stop-shared). */
	assert_false(pcost_model_events("strace", NULL) & (1u << PCOST_CE_SYSCALL_SHARED));
	pcost_cost_table_release(&t);
}

/*
 * The stops that follow work: the mean CPU time between a task's stops g,
 * g / (g + 200 us) of them.  strace stops at every call (1,000 calls in 1 s
 * of CPU: g = 1 ms, 1/1.2 of them); strace-seccomp at its set's alone (100
 * openat: g = 10 ms, 10/10.2); no CPU time counted: no model.
 */
static void test_stops_after_work(void **state)
{
	struct pcost_count_nr nr[] = { { "openat", 100, 0, 0, 0 }, { "read", 900, 0, 0, 0 } };
	struct pcost_cost_table t;
	struct pcost_counts c;
	struct pcost_prediction p;
	double f = 1 / 1.2, n, se;
	char why[256];

	(void)state;
	strace_table(&t);
	seccomp_entries(&t);
	strace_counts(&c);
	c.n[PCOST_CNT_SYSCALLS] = 1000;
	c.se[PCOST_CNT_SYSCALLS] = 10;
	c.n[PCOST_CNT_TASK_CLOCK_NS] = 1e9;
	c.by_nr = nr;
	c.nby_nr = 2;
	pcost_predict(&t, "strace", &c, &p);
	assert_true(p.has_model);
	assert_int_equal(p.terms[7].event, PCOST_CE_STOP_AFTER_WORK);
	near(p.terms[7].count, 1000 * f, 1e-9);
	near(p.terms[7].extra_ns, 1000 * f * 8e4, 1e-6);
	/* d n / d stops = CPU^2 / (CPU + 200 us x stops)^2 = 1 / 1.44, times the calls' se of 10. */
	near(p.terms[7].count_se, 10 / 1.44, 1e-9);
	assert_int_equal(pcost_model_count("strace-seccomp:trace=openat", PCOST_CE_STOP_AFTER_WORK,
					   &c, &n, &se, why, sizeof(why)),
			 0);
	near(n, 100 * 10 / 10.2, 1e-9);
	/* No CPU time between stops: none follows work. */
	c.n[PCOST_CNT_TASK_CLOCK_NS] = 0;
	pcost_predict(&t, "strace", &c, &p);
	near(p.terms[7].count, 0, 0);
	c.n[PCOST_CNT_TASK_CLOCK_NS] = NAN;
	snprintf(c.why[PCOST_CNT_TASK_CLOCK_NS], sizeof(c.why[0]), "no task-clock here");
	pcost_predict(&t, "strace", &c, &p);
	assert_false(p.has_model);
	assert_non_null(strstr(p.why, "no task-clock here"));
	pcost_cost_table_release(&t);
}

/* "no model", never 0: a missing entry, an unavailable one, an uncounted kind, ltrace. */
static void test_no_model(void **state)
{
	struct pcost_cost_table t;
	struct pcost_counts c;
	struct pcost_prediction p;
	struct pcost_cost_entry *e;

	(void)state;
	strace_table(&t);
	strace_counts(&c);
	pcost_predict(&t, "perf-stat", &c, &p);
	assert_false(p.has_model);
	assert_true(isnan(p.extra_ns) && isnan(p.overhead));
	assert_non_null(strstr(p.why, "no entry for perf-stat per run"));

	e = pcost_cost_add(&t, "bpftrace-syscalls", "monitor", PCOST_CE_RUN, NULL, NULL);
	e->status = PCOST_COST_UNAVAILABLE;
	pcost_cost_why(e, "'bpftrace' not found: install package bpftrace");
	pcost_predict(&t, "bpftrace-syscalls", &c, &p);
	assert_false(p.has_model);
	assert_non_null(strstr(p.why, "unavailable: 'bpftrace' not found"));

	c.n[PCOST_CNT_CSWITCHES] = NAN;
	snprintf(c.why[PCOST_CNT_CSWITCHES], sizeof(c.why[0]), "perf_event_open: EACCES");
	pcost_predict(&t, "strace", &c, &p);
	assert_false(p.has_model);
	assert_non_null(strstr(p.why, "context switches were not counted: perf_event_open"));

	pcost_predict(&t, "ltrace", &c, &p);
	assert_false(p.has_model);
	assert_non_null(strstr(p.why, "library call"));
	pcost_predict(&t, "pfmon --follow-fork", &c, &p);
	assert_false(p.has_model);
	pcost_cost_table_release(&t);
}

static void test_cost_se(void **state)
{
	struct pcost_cost_table t;

	(void)state;
	pcost_cost_table_init(&t);
	entry(&t, "x", PCOST_CE_RUN, 10, 8, 12, NAN);
	entry(&t, "x", PCOST_CE_SYSCALL, 10, 8, 12, 4);
	/* Unknown df: the normal quantile; df 4: t = 2.7764451051977987. */
	near(pcost_cost_se(&t.e[0]), 2 / 1.959964, 1e-9);
	near(pcost_cost_se(&t.e[1]), 2 / 2.7764451051977987, 1e-9);
	t.e[1].status = PCOST_COST_FAILED;
	assert_true(isnan(pcost_cost_se(&t.e[1])));
	pcost_cost_table_release(&t);
}

/* A table is stale when a field that decides costs differs; a calibrated TSC reading does not. */
static void test_env_mismatch(void **state)
{
	const char *a = "{\"fields\":{\"kernel.release\":\"6.18.1\",\"cpu.model\":\"AMD EPYC\","
			"\"tsc.hz\":\"2596090121\",\"memory\":\"23.5 GiB\"}}";
	const char *b = "{\"fields\":{\"kernel.release\":\"6.1.0\",\"cpu.model\":\"AMD EPYC\","
			"\"tsc.hz\":\"2596090999\",\"memory\":\"16 GiB\"}}";
	char diff[256];

	(void)state;
	assert_int_equal(pcost_costs_env_mismatch(a, a, diff, sizeof(diff)), 0);
	assert_int_equal(pcost_costs_env_mismatch(a, b, diff, sizeof(diff)), 1);
	assert_string_equal(diff, "kernel.release 6.18.1 -> 6.1.0");
	assert_int_equal(pcost_costs_env_mismatch(a, "not json", diff, sizeof(diff)), -1);
}

/* Which table prices this machine: the newest matching one; this host's stale one is refused. */
static void test_pick(void **state)
{
	const char *here = "{\"fields\":{\"kernel.release\":\"6.18.1\"}}";
	const char *old = "{\"fields\":{\"kernel.release\":\"6.1.0\"}}";
	struct pcost_cost_table t[3];
	char why[256];

	(void)state;
	for (int i = 0; i < 3; i++) {
		pcost_cost_table_init(&t[i]);
		t[i].complete = true;
		t[i].id = 3 - i;
	}
	/* Newest first: this host on an old kernel, another machine, this host on this kernel. */
	t[0].host = strdup("a");
	t[0].env_json = strdup(old);
	t[1].host = strdup("b");
	t[1].env_json = strdup(old);
	t[2].host = strdup("a");
	t[2].env_json = strdup(here);
	assert_int_equal(pcost_costs_pick(t, 3, "a", here, why, sizeof(why)), 2);
	/* Without the matching one: this host's newest is stale, refused with the field. */
	assert_int_equal(pcost_costs_pick(t, 2, "a", here, why, sizeof(why)), -2);
	assert_non_null(strstr(why, "kernel.release 6.1.0 -> 6.18.1"));
	/* Another host's tables only: none is this machine's (calibrate first). */
	assert_int_equal(pcost_costs_pick(t, 2, "c", here, why, sizeof(why)), -1);
	/* An incomplete table never prices. */
	t[2].complete = false;
	assert_int_equal(pcost_costs_pick(&t[2], 1, "a", here, why, sizeof(why)), -1);
	for (int i = 0; i < 3; i++)
		pcost_cost_table_release(&t[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_combine_known),
		cmocka_unit_test(test_combine_exact),
		cmocka_unit_test(test_parallel),
		cmocka_unit_test(test_service),
		cmocka_unit_test(test_record_samples),
		cmocka_unit_test(test_seccomp_split),
		cmocka_unit_test(test_strace_classes),
		cmocka_unit_test(test_stops_after_work),
		cmocka_unit_test(test_no_model),
		cmocka_unit_test(test_conditions),
		cmocka_unit_test(test_cost_se),
		cmocka_unit_test(test_env_mismatch),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_wait_overlap),
		cmocka_unit_test(test_task_concurrency),
		cmocka_unit_test(test_stops_shared),
		cmocka_unit_test(test_calls_side_by_side),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
