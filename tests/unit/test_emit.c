// SPDX-License-Identifier: MIT
/*
 * test_emit: one JSON envelope for run, probes and counters sessions, and
 * nothing unmeasured written as a number (null in JSON, empty in CSV): the
 * renderers once wrote extra_cycles 0 without a TSC, monitor_events -1,
 * events 0, and "nan" in the probes CSV.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/report.h"
#include "synth_session.h"

static char *render(const struct pcost_session *s, enum pcost_format f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	assert_non_null(m);
	assert_int_equal(pcost_report_session(s, f, m), 0);
	fclose(m);
	return buf;
}

/* A session nobody could count events in, on a machine without a known TSC. */
static void unmeasured_session(struct pcost_session *s, enum pcost_session_kind kind)
{
	synth_session(s, kind, 4, 1.5);
	s->tsc_hz = 0;
	for (size_t i = 0; i < s->nconfigs; i++) {
		s->configs[i].expected_events = -1;
		for (size_t k = 0; k < s->configs[i].nsamples; k++) {
			s->configs[i].samples[k].events = 0;
			s->configs[i].samples[k].monitor_events = -1;
			s->configs[i].samples[k].has_report = false;
		}
	}
}

static void assert_envelope(cJSON *j, const char *kind)
{
	static const char *const keys[] = { "probecost", "kind", "complete", "env", "options",
					    "session", "statistics", "warnings" };

	assert_non_null(j);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!cJSON_GetObjectItemCaseSensitive(j, keys[i]))
			fail_msg("%s JSON has no \"%s\"", kind, keys[i]);
	assert_string_equal(cJSON_GetObjectItem(j, "kind")->valuestring, kind);
	assert_true(cJSON_IsArray(cJSON_GetObjectItem(j, "statistics")));
	assert_true(cJSON_IsObject(cJSON_GetObjectItem(j, "env")));
}

static bool is_null(cJSON *o, const char *k)
{
	return cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(o, k));
}

static void test_run_json(void **state)
{
	struct pcost_session s;
	char *txt;
	cJSON *j, *m;

	(void)state;
	unmeasured_session(&s, PCOST_SESSION_RUN);
	txt = render(&s, PCOST_FMT_JSON);
	j = cJSON_Parse(txt);
	assert_envelope(j, "run");
	m = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "statistics"), 1);
	assert_true(is_null(m, "extra_cycles") && is_null(m, "extra_cycles_lo"));
	assert_true(is_null(m, "monitor_events"));
	assert_true(is_null(m, "events"));
	assert_true(is_null(m, "per_event_ns") && is_null(m, "per_event_ns_hi"));
	assert_true(cJSON_IsString(cJSON_GetObjectItem(m, "per_event_why")));
	assert_true(cJSON_IsNumber(cJSON_GetObjectItem(m, "overhead_lo")));
	assert_true(cJSON_IsNumber(cJSON_GetObjectItem(m, "extra_ns_hi")));
	cJSON_Delete(j);
	free(txt);
	pcost_session_release(&s);
}

static void test_run_csv_text(void **state)
{
	struct pcost_session s;
	char *csv, *text, *row;

	(void)state;
	unmeasured_session(&s, PCOST_SESSION_RUN);
	csv = render(&s, PCOST_FMT_CSV);
	assert_null(strstr(csv, "nan"));
	assert_null(strstr(csv, ",-1"));
	/* extra_cycles, its bounds, events, monitor_events: empty. */
	row = strchr(strchr(csv, '\n') + 1, '\n') + 1;
	assert_non_null(strstr(row, ",,,,,"));
	text = render(&s, PCOST_FMT_TEXT);
	assert_non_null(strstr(text, "n/a"));
	assert_null(strstr(text, "nan"));
	free(csv);
	free(text);
	pcost_session_release(&s);
}

static void test_probes(void **state)
{
	struct pcost_session s;
	char *csv, *txt;
	cJSON *j;

	(void)state;
	unmeasured_session(&s, PCOST_SESSION_PROBES);
	s.configs[0].monitor = (free(s.configs[0].monitor), xstrdup("dormant"));
	csv = render(&s, PCOST_FMT_CSV);
	assert_null(strstr(csv, "nan"));
	assert_null(strstr(csv, ",-1"));
	txt = render(&s, PCOST_FMT_JSON);
	j = cJSON_Parse(txt);
	assert_envelope(j, "probes");
	assert_true(is_null(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "statistics"), 1), "per_hit_cycles"));
	cJSON_Delete(j);
	free(txt);
	free(csv);
	pcost_session_release(&s);
}

static void test_counters(void **state)
{
	struct pcost_session s;
	char *txt;
	cJSON *j;

	(void)state;
	synth_session(&s, PCOST_SESSION_COUNTERS, 2, 1);
	txt = render(&s, PCOST_FMT_JSON);
	j = cJSON_Parse(txt);
	assert_envelope(j, "counters");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(j, "statistics")), 2);
	cJSON_Delete(j);
	free(txt);
	pcost_session_release(&s);
}

/* Other processes' CPU time recorded with the runs: per configuration in JSON, a warning in text. */
static void test_busy(void **state)
{
	struct pcost_session s;
	char *txt;
	cJSON *j, *m;

	(void)state;
	synth_session(&s, PCOST_SESSION_RUN, 4, 1.5);
	for (size_t i = 0; i < s.nconfigs; i++)
		for (size_t k = 0; k < s.configs[i].nsamples; k++) {
			struct pcost_run_sample *x = &s.configs[i].samples[k];

			x->has_busy = true;
			x->other_cpu_ns = x->wall_ns / 2;	/* half the run's time again */
			x->steal_ns = 0;
		}
	txt = render(&s, PCOST_FMT_TEXT);
	assert_non_null(strstr(txt, "busy machine: other processes took CPU time equal to 50% (none on pipe) to 50% (none on pipe)"));
	free(txt);
	txt = render(&s, PCOST_FMT_JSON);
	j = cJSON_Parse(txt);
	m = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "statistics"), 0);
	/* The mean over the measured runs (blocks 1..3; block 0 is warm-up). */
	assert_true(fabs(cJSON_GetObjectItem(m, "other_cpu_ns")->valuedouble - 501000) < 1e-6);
	assert_true(cJSON_GetObjectItem(m, "steal_ns")->valuedouble == 0);
	cJSON_Delete(j);
	free(txt);
	pcost_session_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_json),
		cmocka_unit_test(test_run_csv_text),
		cmocka_unit_test(test_probes),
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_busy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
