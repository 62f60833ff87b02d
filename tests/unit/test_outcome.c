// SPDX-License-Identifier: MIT
/* test_outcome: each configuration's outcome and its one line, from its runs' faults (stats/outcome.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stats/analyze.h"

/* n runs of monitor on one build, ending with fault f (and reason) from run `from` on. */
static struct pcost_config *add(struct pcost_session *s, const char *monitor, size_t n, size_t from,
				enum pcost_fault f, const char *reason)
{
	struct pcost_config *c = pcost_session_add_config(s, "stanford", "variant=plain scale=1",
							  monitor, "plain", "hit");

	for (size_t k = 0; k < n; k++) {
		struct pcost_run_sample x = { .block = (uint32_t)k,
					      .warmup = k == 0,
					      .scale = 1,
					      .wall_ns = 1000000,
					      .fault = PCOST_FAULT_NONE,
					      .monitor_events = -1 };

		if (k >= from) {
			x.fault = f;
			if (f == PCOST_FAULT_PROGRAM || f == PCOST_FAULT_UNKNOWN || reason)
				pcost_sample_fail(&x, "%s", reason ? reason : "exit 3");
		}
		pcost_config_add_sample(c, &x);
	}
	return c;
}

static struct pcost_config_stats *analyze(const struct pcost_session *s)
{
	struct pcost_config_stats *st = NULL;

	assert_int_equal(pcost_analyze(s, &st), 0);
	return st;
}

static void changed_program(void **state)
{
	struct pcost_session s;
	struct pcost_config_stats *st;
	char mons[64];

	(void)state;
	pcost_session_init(&s, PCOST_SESSION_PROBES);
	add(&s, "dormant", 3, 3, PCOST_FAULT_NONE, NULL);
	add(&s, "uprobe", 3, 1, PCOST_FAULT_PROGRAM, "killed by SIGSEGV at fft+0x189");
	add(&s, "ftrace", 3, 3, PCOST_FAULT_NONE, NULL);
	/* The worst outcome of its runs: one tool failure, then a changed program. */
	add(&s, "bpftrace", 3, 1, PCOST_FAULT_TOOL, "monitor did not start: x");
	s.configs[3].samples[2].fault = PCOST_FAULT_PROGRAM;
	st = analyze(&s);
	assert_int_equal(st[0].outcome, PCOST_OUTCOME_OK);
	assert_string_equal(st[0].outcome_why, "3 runs ok");
	assert_int_equal(st[1].outcome, PCOST_OUTCOME_CHANGED_PROGRAM);
	assert_string_equal(st[1].outcome_why, "2 of 3 runs: killed by SIGSEGV at fft+0x189; its "
					       "dormant runs: 3 of 3 ok");
	assert_int_equal(st[2].outcome, PCOST_OUTCOME_OK);
	assert_int_equal(st[3].outcome, PCOST_OUTCOME_CHANGED_PROGRAM);
	assert_memory_equal(st[3].outcome_why, "1 of 3 runs", 11);
	assert_int_equal(pcost_changed_rows(&s, st, mons, sizeof(mons)), 2);
	assert_string_equal(mons, "uprobe, bpftrace");
	assert_string_equal(pcost_outcome_name(st[1].outcome), "changed-program");
	free(st);
	pcost_session_release(&s);
}

/* The program fails without the tool too: not the tool's doing; and the tool's own failures. */
static void program_and_tool_failed(void **state)
{
	struct pcost_session s;
	struct pcost_config_stats *st;
	char mons[64];

	(void)state;
	pcost_session_init(&s, PCOST_SESSION_RUN);
	add(&s, "none", 4, 3, PCOST_FAULT_PROGRAM, "exit 3");
	add(&s, "strace", 4, 2, PCOST_FAULT_PROGRAM, "exit 3");
	add(&s, "perf-trace", 4, 2, PCOST_FAULT_TOOL, "hung: killed after 12.0 s");
	st = analyze(&s);
	assert_int_equal(st[0].outcome, PCOST_OUTCOME_PROGRAM_FAILED);
	assert_string_equal(st[0].outcome_why, "1 of 4 runs: exit 3");
	assert_int_equal(st[1].outcome, PCOST_OUTCOME_PROGRAM_FAILED);
	assert_string_equal(st[1].outcome_why, "2 of 4 runs: exit 3");
	assert_int_equal(st[2].outcome, PCOST_OUTCOME_TOOL_FAILED);
	assert_string_equal(st[2].outcome_why, "2 of 4 runs: hung: killed after 12.0 s");
	assert_int_equal(pcost_changed_rows(&s, st, mons, sizeof(mons)), 0);
	free(st);
	pcost_session_release(&s);
}

/* Runs stored before faults were: derived from what they have, or unknown. */
static void older_runs(void **state)
{
	struct pcost_session s;
	struct pcost_config_stats *st;

	(void)state;
	pcost_session_init(&s, PCOST_SESSION_PROBES);
	add(&s, "dormant", 3, 3, PCOST_FAULT_UNKNOWN, NULL);
	add(&s, "uprobe", 3, 1, PCOST_FAULT_UNKNOWN, "killed by SIGSEGV");
	add(&s, "ftrace", 3, 2, PCOST_FAULT_UNKNOWN, "monitor did not start: no tracefs");
	for (size_t k = 0; k < 3; k++)
		s.configs[0].samples[k].fault = PCOST_FAULT_UNKNOWN;
	st = analyze(&s);
	assert_int_equal(st[0].outcome, PCOST_OUTCOME_OK);
	assert_int_equal(st[1].outcome, PCOST_OUTCOME_UNKNOWN);
	assert_string_equal(st[1].outcome_why,
			    "2 of 3 runs: killed by SIGSEGV (stored before "
			    "probecost told the program's failures from the tool's)");
	assert_int_equal(st[2].outcome, PCOST_OUTCOME_TOOL_FAILED);
	assert_int_equal(pcost_sample_fault(&s.configs[1].samples[1], true), PCOST_FAULT_PROGRAM);
	free(st);
	pcost_session_release(&s);
}

/* A tracer's own note on its runs: an ok row says it. */
static void said_losses(void **state)
{
	struct pcost_session s;
	struct pcost_config_stats *st;

	(void)state;
	pcost_session_init(&s, PCOST_SESSION_PROBES);
	add(&s, "dormant", 3, 3, PCOST_FAULT_NONE, NULL);
	add(&s, "lttng", 3, 3, PCOST_FAULT_NONE, NULL);
	strcpy(s.configs[1].samples[2].note, "lttng discarded 12 events");
	st = analyze(&s);
	assert_int_equal(st[1].outcome, PCOST_OUTCOME_OK);
	assert_string_equal(st[1].outcome_why,
			    "3 runs ok; lttng said: lttng discarded 12 events (in 1)");
	free(st);
	pcost_session_release(&s);
}

/* A configuration with no run: an interrupted session says so. */
static void not_run(void **state)
{
	struct pcost_session s;
	struct pcost_config_stats *st;

	(void)state;
	pcost_session_init(&s, PCOST_SESSION_RUN);
	add(&s, "none", 2, 2, PCOST_FAULT_NONE, NULL);
	add(&s, "strace", 0, 0, PCOST_FAULT_NONE, NULL);
	s.complete = true;
	st = analyze(&s);
	assert_int_equal(st[1].outcome, PCOST_OUTCOME_UNKNOWN);
	assert_string_equal(st[1].outcome_why, "no run");
	free(st);
	s.complete = false;
	st = analyze(&s);
	assert_int_equal(st[1].outcome, PCOST_OUTCOME_UNKNOWN);
	assert_string_equal(st[1].outcome_why, "not run: the session was interrupted first");
	free(st);
	pcost_session_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(changed_program), cmocka_unit_test(program_and_tool_failed),
		cmocka_unit_test(older_runs),	   cmocka_unit_test(said_losses),
		cmocka_unit_test(not_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
