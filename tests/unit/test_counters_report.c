// SPDX-License-Identifier: MIT
/*
 * test_counters_report: pcost_report_counters() renders a session from its
 * series alone (what the store's show/report call on a stored session):
 * statistics, cycles from tsc_hz, matmul cost per read, skipped rows, CSV quoting.
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
#include "core/result.h"
#include "core/util.h"

static void make_session(struct pcost_session *s)
{
	static const double rd[] = { 100, 200, 300, 400, 1000 }; /* median 300, mean 400 */
	static const double mm[] = { 1128000, 1128000, 1128000 };
	static const double base[] = { 1000000, 1000000, 1000000 };
	struct pcost_counter_series *sr;

	pcost_session_init(s, PCOST_SESSION_COUNTERS);
	s->tsc_hz = 2e9; /* 2 cycles per ns */
	s->complete = true;
	s->options_json =
		xstrdup("{\"iterations\":5,\"cpu\":1,\"timer\":\"tsc\",\"matmul_n\":128}");
	pcost_session_add_series(s, "perf-group", "read", "task-clock,page-faults", 2, "tsc", rd,
				 5);
	sr = pcost_session_add_series(s, "perf-mmap", "all", "", 0, "tsc", NULL, 0);
	sr->note = xstrdup("skipped: index 0");
	sr = pcost_session_add_series(s, "perf-group", "matmul", "task-clock,page-faults", 2, "tsc",
				      mm, 3);
	sr->note = xstrdup("128 reads/run; values monotonic");
	pcost_session_add_series(s, "perf-group", "matmul-base", "task-clock,page-faults", 2, "tsc",
				 base, 3);
}

static char *render(const struct pcost_session *s, enum pcost_format f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(pcost_report_counters(s, f, out), 0);
	fclose(out);
	return buf;
}

static void test_json(void **state)
{
	struct pcost_session s;
	char *text;
	cJSON *j, *series, *r0, *mm;

	make_session(&s);
	text = render(&s, PCOST_FMT_JSON);
	j = cJSON_Parse(text);
	assert_non_null(j);
	series = cJSON_GetObjectItem(j, "statistics");
	assert_int_equal(cJSON_GetArraySize(series), 4);
	r0 = cJSON_GetArrayItem(series, 0);
	assert_true(cJSON_GetObjectItem(cJSON_GetObjectItem(r0, "ns"), "median")->valuedouble ==
		    300);
	assert_true(cJSON_GetObjectItem(cJSON_GetObjectItem(r0, "ns"), "mean")->valuedouble == 400);
	assert_true(cJSON_GetObjectItem(cJSON_GetObjectItem(r0, "cycles"), "median")->valuedouble ==
		    600);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(series, 1), "skipped")));
	mm = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "matmul"), 0);
	assert_non_null(mm);
	/* (1128000 - 1000000) / 128 reads = 1000 ns per read */
	assert_true(fabs(cJSON_GetObjectItem(mm, "per_read_ns")->valuedouble - 1000) < 1e-9);
	cJSON_Delete(j);
	free(text);
	pcost_session_release(&s);
}

static void test_text_csv_markdown(void **state)
{
	struct pcost_session s;
	char *t;

	make_session(&s);
	t = render(&s, PCOST_FMT_TEXT);
	assert_non_null(strstr(t, "perf-group"));
	assert_non_null(strstr(t, "300.0"));
	assert_non_null(strstr(t, "1000.0")); /* per read */
	assert_non_null(strstr(t, "skipped: index 0"));
	free(t);
	t = render(&s, PCOST_FMT_CSV);
	/* The event list holds a comma: quoted. */
	assert_non_null(
		strstr(t, "perf-group,read,2,\"task-clock,page-faults\",tsc,5,100.00,300.00"));
	assert_non_null(strstr(t, ",1000.00,"));
	free(t);
	t = render(&s, PCOST_FMT_MARKDOWN);
	assert_non_null(strstr(t, "| perf-group | read | 2 | 5 |"));
	free(t);
	pcost_session_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_text_csv_markdown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
