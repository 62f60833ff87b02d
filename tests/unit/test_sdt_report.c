// SPDX-License-Identifier: MIT
/* test_sdt_report: the probes report on a synthetic session with known answers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/report.h"
#include "report/warnings.h"
#include "core/result.h"

/* Four blocks; walls in ms; the uprobe's counts per block. */
static struct pcost_config *add(struct pcost_session *s, const char *variant, const char *monitor,
				double ms, const int64_t *counts)
{
	char args[64];
	struct pcost_config *c;

	/* As probes/plan.c records them: the variant is part of the workload's arguments. */
	snprintf(args, sizeof(args), "variant=%s scale=1", variant);
	c = pcost_session_add_config(s, "stanford", args, monitor, variant, "hit");

	c->expected_events = 1000;
	for (uint32_t b = 0; b < 4; b++) {
		struct pcost_run_sample x = {
			.block = b, .wait_status = 0, .scale = 1, .has_report = true, .events = 1000
		};

		/* +-1% around the mean, the same pattern in every config. */
		x.wall_ns = (pcost_ns)(ms * 1e6 * (b % 2 ? 1.01 : 0.99));
		/* The stanford kernels time themselves: 0.1 ms of each run is outside. */
		x.timed_ns = x.wall_ns - 100000;
		x.monitor_events = counts ? counts[b] : -1;
		pcost_config_add_sample(c, &x);
	}
	return c;
}

static char *render(const struct pcost_session *s, enum pcost_format f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_int_equal(pcost_report_probes(s, f, out), 0);
	fclose(out);
	return buf;
}

static void known_answers(void **state)
{
	static const int64_t exact[4] = { 1000, 1000, 1000, 1000 };
	static const int64_t short_by_10[4] = { 1000, 990, 1000, 1000 };
	struct pcost_session s;
	char *txt, *csv;

	(void)state;
	pcost_session_init(&s, PCOST_SESSION_PROBES);
	s.tsc_hz = 2e9;
	s.complete = true;
	add(&s, "none", "dormant", 9, NULL);
	add(&s, "plain", "dormant", 10, NULL);
	add(&s, "plain", "uprobe", 11, exact);
	add(&s, "plain", "ftrace", 12, short_by_10);
	/* The same shortfall, which the tracer said it lost (its note on the run). */
	strcpy(add(&s, "plain", "lttng", 12, short_by_10)->samples[1].note,
	       "lttng discarded 10 events");
	txt = render(&s, PCOST_FMT_TEXT);
	/*
	 * 1 ms extra inside the timed region over 1000 hits: 1000 ns, 2000 cycles
	 * at 2 GHz; the blocks say 990 and 1010 ns alternately: sd 11.55, t(3) 3.182,
	 * half-width 18.4 ns.
	 */
	assert_non_null(strstr(txt, "1000 [982, 1018] ns"));
	assert_non_null(strstr(txt, "2000 "));
	assert_non_null(strstr(txt, "1000 / 1000  ok"));
	/* A shortfall is the tracer's loss only when the tracer said so. */
	assert_non_null(strstr(txt, "1000 / 1000  10 SHORT"));
	assert_non_null(strstr(txt, "1000 / 1000  10 HITS LOST"));
	assert_non_null(strstr(txt, "plain/lttng: ok: 4 runs ok; lttng said: lttng discarded 10 "
				    "events (in 1)"));
	/* plain's dormant build against the no-probe one, timed regions: 9.9/8.9 ms = +11.2%, 1 ms / 1000 hits. */
	assert_non_null(strstr(txt, "+11.2% [+11.2, +11.2]     1000 [982, 1018] ns"));
	csv = render(&s, PCOST_FMT_CSV);
	assert_non_null(strstr(csv, "plain,uprobe,4,0,11000000,"));
	assert_non_null(strstr(csv, ",1000.00,2000.0,1000,1000,0,"));
	assert_non_null(strstr(csv, ",2000.00,4000.0,1000,1000,10,"));
	assert_non_null(strstr(csv, ",false,ok,4 runs ok\n"));
	assert_non_null(
		strstr(csv, ",true,ok,4 runs ok; lttng said: lttng discarded 10 events (in 1)\n"));
	assert_null(strstr(csv, "nan"));
	free(txt);
	free(csv);
	pcost_session_release(&s);
}

/* Site encoding, threads and the kernel's optimization, from the arguments and the runs. */
/* The CSV row that holds mid ends with tail (before its newline). */
static bool csv_row_ends(const char *csv, const char *mid, const char *tail)
{
	const char *m = strstr(csv, mid), *nl = m ? strchr(m, '\n') : NULL;
	size_t tl = strlen(tail);

	return nl && (size_t)(nl - m) >= tl && !strncmp(nl - tl, tail, tl);
}

static void site_threads_optimized(void **state)
{
	static const int64_t exact[4] = { 1000, 1000, 1000, 1000 };
	struct pcost_session s;
	struct pcost_config *c;
	char *json, *csv, *txt;

	(void)state;
	pcost_session_init(&s, PCOST_SESSION_PROBES);
	s.complete = true;
	add(&s, "plain site=nop5 threads=2", "dormant", 10, NULL);
	add(&s, "plain site=nop5 threads=2", "uprobe", 11, exact);
	add(&s, "plain site=nop10 threads=2", "dormant", 10, NULL);
	c = add(&s, "plain site=nop10 threads=2", "uprobe", 12, exact);
	/* nop5: every run saw the trampoline; nop10: none but one that could not say. */
	for (size_t k = 0; k < 4; k++) {
		s.configs[1].samples[k].optimized = 1;
		c->samples[k].optimized = k ? -1 : 0;
	}
	json = render(&s, PCOST_FMT_JSON);
	assert_non_null(strstr(json, "\"site\":\t\"nop5\""));
	assert_non_null(strstr(json, "\"threads\":\t2"));
	assert_non_null(strstr(json, "\"optimized\":\ttrue"));
	assert_non_null(strstr(json, "\"optimized\":\tfalse"));
	assert_non_null(strstr(json, "\"optimized_runs\":\t4"));
	csv = render(&s, PCOST_FMT_CSV);
	/*
	 * No nop twin in this session: the gain columns are empty, and so is the
	 * robust gain; then the carry-over, empty too (every run here has position 0
	 * in its block: no time order), no site facts either, no loss said (no loss):
	 * then the outcome.
	 */
	assert_true(csv_row_ends(csv, ",nop5,2,4,4,,,,", ",,,,,,,,,,,ok,4 runs ok"));
	assert_true(csv_row_ends(csv, ",nop10,2,0,3,,,,", ",,,,,,,,,,,ok,4 runs ok"));
	assert_non_null(strstr(json, "\"red_zone_live\":\tnull"));
	txt = render(&s, PCOST_FMT_TEXT);
	assert_non_null(strstr(txt, "optimized"));
	free(json);
	free(csv);
	free(txt);
	pcost_session_release(&s);
}

/* The sites' facts, as cmd/probes.c keeps them in the options (one per row), in every format. */
static void site_facts(void **state)
{
	static const int64_t exact[4] = { 1000, 1000, 1000, 1000 };
	struct pcost_session s;
	char *json, *csv, *txt, *md;

	(void)state;
	pcost_session_init(&s, PCOST_SESSION_PROBES);
	s.complete = true;
	add(&s, "plain site=nop5", "dormant", 10, NULL);
	add(&s, "plain site=nop5", "uprobe", 11, exact);
	add(&s, "plain site=nop5-nrz", "dormant", 10, NULL);
	add(&s, "plain site=nop5-nrz", "uprobe", 11, exact);
	/* The first dormant row has none; the last a fact not known. */
	s.options_json =
		strdup("{\"via\":\"uprobe\",\"site_facts\":[null,"
		       "{\"encoding\":\"nop5\",\"red_zone_live\":true,\"optimizable\":true},"
		       "{\"encoding\":\"nop5\",\"red_zone_live\":false,\"optimizable\":true},"
		       "{\"encoding\":\"nop5\",\"red_zone_live\":false,\"optimizable\":null}]}");
	json = render(&s, PCOST_FMT_JSON);
	assert_non_null(strstr(json, "\"encoding\":\t\"nop5\",\n\t\t\t\"red_zone_live\":\ttrue,\n"
				     "\t\t\t\"optimizable\":\ttrue"));
	assert_non_null(strstr(json, "\"red_zone_live\":\tfalse,\n\t\t\t\"optimizable\":\tnull"));
	assert_non_null(strstr(json, "\"encoding\":\tnull,\n\t\t\t\"red_zone_live\":\tnull"));
	csv = render(&s, PCOST_FMT_CSV);
	assert_non_null(strstr(
		csv, ",encoding,red_zone_live,optimizable,hits_loss_said,outcome,outcome_why\n"));
	assert_non_null(strstr(csv, ",nop5,true,true,,"));
	assert_non_null(strstr(csv, ",nop5,false,true,,"));
	assert_non_null(strstr(csv, ",nop5,false,,,"));
	txt = render(&s, PCOST_FMT_TEXT);
	/* Before optimized (what the kernel did); then the outcome, the last column. */
	assert_non_null(strstr(txt, " encoding red-zone optimizable optimized outcome\n"));
	assert_non_null(strstr(txt, " nop5     yes      yes         n/a       "));
	assert_non_null(strstr(txt, " nop5     no       n/a         n/a       "));
	assert_non_null(strstr(txt, " nop5-nrz "));
	md = render(&s, PCOST_FMT_MARKDOWN);
	assert_non_null(
		strstr(md, "| encoding | red zone live | optimizable | optimized | outcome |\n"));
	assert_non_null(strstr(md, "| nop5 | yes | yes | n/a | "));
	assert_non_null(strstr(md, "| - | - | - | n/a | "));
	free(json);
	free(csv);
	free(txt);
	free(md);
	pcost_session_release(&s);
}

/*
 * One build at three code layouts, two of them skewed (report/warnings.c): one
 * line for the build, naming both and showing the one whose mean and robust
 * figure lie furthest apart (a64: 0.9 against 0.5), not a line per layout.
 */
static void dormant_layout_skew(void **state)
{
	static const char *const layouts[] = { "", " layout=a32", " layout=a64" };
	static const double mean[] = { 0.5, 0.7, 0.9 }, robust[] = { 0.5, 0.6, 0.5 };
	struct pcost_config_stats st[3];
	struct pcost_run_warnings w = { 0 };
	struct pcost_session s;
	char args[64];

	(void)state;
	pcost_session_init(&s, PCOST_SESSION_PROBES);
	memset(st, 0, sizeof(st));
	for (size_t i = 0; i < 3; i++) {
		snprintf(args, sizeof(args), "variant=plain scale=1%s", layouts[i]);
		pcost_session_add_config(&s, "stanford", args, "dormant", "plain", "hit");
		st[i].baseline = -1;
		st[i].noprobe = 0;
		st[i].dormant_build = 0;
		st[i].dormant_layouts = 3;
		st[i].dormant_skewed = i > 0;
		st[i].dormant_per_hit_ns = mean[i];
		st[i].dormant_per_hit_ns_lo = mean[i] - 0.2;
		st[i].dormant_per_hit_ns_hi = mean[i] + 0.6;
		st[i].dormant_per_hit_ns_robust = robust[i];
		st[i].dormant_per_hit_ns_robust_lo = robust[i] - 0.1;
		st[i].dormant_per_hit_ns_robust_hi = robust[i] + 0.1;
	}
	pcost_stat_warnings(&s, st, &w);
	assert_int_equal(w.n, 1);
	assert_non_null(strstr(w.msg[0], "plain/dormant: dormant per hit skewed at 2 of 3 "
					 "layouts (a32 a64)"));
	assert_non_null(strstr(w.msg[0], "furthest apart, a64: mean 0.90 [0.70, 1.50]"));
	assert_non_null(strstr(w.msg[0], "robust 0.50 [0.40, 0.60]"));
	/* Every layout skewed: "all", not their names. */
	st[0].dormant_skewed = true;
	w.n = 0;
	pcost_stat_warnings(&s, st, &w);
	assert_int_equal(w.n, 1);
	assert_non_null(strstr(w.msg[0], "skewed at 3 of 3 layouts (all): "));
	/* One layout: the row's own line, as a run's. */
	st[0].dormant_layouts = 1;
	st[0].dormant_skewed = true;
	w.n = 0;
	pcost_stat_warnings(&s, st, &w);
	assert_true(w.n >= 1);
	assert_non_null(strstr(w.msg[0], "plain/dormant: dormant per hit mean 0.50"));
	pcost_session_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(known_answers),
		cmocka_unit_test(site_threads_optimized),
		cmocka_unit_test(site_facts),
		cmocka_unit_test(dormant_layout_skew),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
