// SPDX-License-Identifier: MIT
/* test_session_json: round trips and the importer's refusals. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "store/store.h"
#include "synth_session.h"

static void roundtrip(enum pcost_session_kind kind)
{
	struct pcost_session a, b;
	char err[256];
	cJSON *j, *j2;
	char *text;

	synth_session(&a, kind, 5, 1.3);
	a.complete = false;
	a.id = 42;
	/* cJSON's own printing wrote this as 2596091293.3224, a different double. */
	a.tsc_hz = 2596091293.3224006;
	j = pcost_session_to_json(&a);
	text = cJSON_PrintUnformatted(j);
	j2 = cJSON_Parse(text);
	assert_non_null(j2);
	assert_int_equal(pcost_session_from_json(j2, &b, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_sessions_equal(&a, &b);
	assert_int_equal(b.id, 42);
	free(text);
	cJSON_Delete(j);
	cJSON_Delete(j2);
	pcost_session_release(&a);
	pcost_session_release(&b);
}

static void test_roundtrip_run(void **st)
{
	roundtrip(PCOST_SESSION_RUN);
}
static void test_roundtrip_probes(void **st)
{
	roundtrip(PCOST_SESSION_PROBES);
}
static void test_roundtrip_counters(void **st)
{
	roundtrip(PCOST_SESSION_COUNTERS);
}

/* NULL strings and no env survive as NULL. */
static void test_roundtrip_nulls(void **st)
{
	struct pcost_session a, b;
	char err[256];
	cJSON *j;

	pcost_session_init(&a, PCOST_SESSION_RUN);
	pcost_session_add_config(&a, "command", NULL, "none", NULL, NULL);
	j = pcost_session_to_json(&a);
	assert_int_equal(pcost_session_from_json(j, &b, err, sizeof(err)), 0);
	assert_sessions_equal(&a, &b);
	cJSON_Delete(j);
	pcost_session_release(&a);
	pcost_session_release(&b);
}

/* Apply edit to a valid export, expect refusal naming `want`, and nothing left in *s. */
static void expect_reject(void (*edit)(cJSON *), const char *want)
{
	struct pcost_session a, b;
	char err[256];
	cJSON *j;

	synth_session(&a, PCOST_SESSION_COUNTERS, 4, 1.2);
	j = pcost_session_to_json(&a);
	edit(j);
	assert_int_equal(pcost_session_from_json(j, &b, err, sizeof(err)), -EINVAL);
	if (!strstr(err, want))
		fail_msg("error '%s' does not contain '%s'", err, want);
	assert_int_equal(b.nconfigs, 0);
	assert_null(b.configs);
	assert_null(b.series);
	assert_null(b.cmdline);
	cJSON_Delete(j);
	pcost_session_release(&a);
}

static cJSON *sample(cJSON *j, int c, int s)
{
	return cJSON_GetArrayItem(
		cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "configs"), c),
				    "samples"),
		s);
}

static void e_format(cJSON *j)
{
	cJSON_ReplaceItemInObject(j, "format", cJSON_CreateString("x"));
}
static void e_newer(cJSON *j)
{
	cJSON_ReplaceItemInObject(j, "format_version", cJSON_CreateNumber(7));
}
static void e_unknown(cJSON *j)
{
	cJSON_AddNumberToObject(j, "evil", 1);
}
static void e_dup(cJSON *j)
{
	cJSON_AddStringToObject(j, "kind", "run");
}
static void e_missing(cJSON *j)
{
	cJSON_DeleteItemFromObject(j, "configs");
}
static void e_kind(cJSON *j)
{
	cJSON_ReplaceItemInObject(j, "kind", cJSON_CreateString("bogus"));
}
static void e_negwall(cJSON *j)
{
	cJSON_ReplaceItemInObject(sample(j, 1, 2), "wall_ns", cJSON_CreateNumber(-5));
}
static void e_fracblock(cJSON *j)
{
	cJSON_ReplaceItemInObject(sample(j, 0, 1), "block", cJSON_CreateNumber(1.5));
}
static void e_hugewall(cJSON *j)
{
	cJSON_ReplaceItemInObject(sample(j, 0, 1), "wall_ns", cJSON_CreateNumber(1e300));
}
static void e_wallstr(cJSON *j)
{
	cJSON_ReplaceItemInObject(sample(j, 0, 1), "wall_ns", cJSON_CreateString("12"));
}
static void e_reason(cJSON *j)
{
	/* One byte more than a stored reason holds. */
	char s[sizeof(((struct pcost_run_sample *)0)->fail_reason) + 1];

	memset(s, 'x', sizeof(s) - 1);
	s[sizeof(s) - 1] = 0;
	cJSON_ReplaceItemInObject(sample(j, 0, 0), "fail_reason", cJSON_CreateString(s));
}
static void e_ctrl(cJSON *j)
{
	cJSON_ReplaceItemInObject(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "configs"), 0),
				  "monitor", cJSON_CreateString("none\033[2J"));
}
static void e_utf8(cJSON *j)
{
	cJSON_ReplaceItemInObject(j, "cmdline",
				  cJSON_CreateString("a\xc0\xaf"
						     "b"));
}
static void e_seed(cJSON *j)
{
	cJSON_ReplaceItemInObject(j, "seed", cJSON_CreateString("12x"));
}
static void e_seedbig(cJSON *j)
{
	cJSON_ReplaceItemInObject(j, "seed", cJSON_CreateString("99999999999999999999"));
}
static void e_ns(cJSON *j)
{
	cJSON *ns =
		cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "series"), 1), "ns");

	cJSON_AddItemToArray(ns, cJSON_CreateNumber(-1));
}
static void e_env(cJSON *j)
{
	cJSON_ReplaceItemInObject(j, "env", cJSON_CreateArray());
}
static void e_sample_obj(cJSON *j)
{
	cJSON_AddItemToArray(
		cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "configs"), 1),
				    "samples"),
		cJSON_CreateNumber(3));
}

/* counters samples have no optimized member: add one that is not a boolean. */
static void e_optimized(cJSON *j)
{
	cJSON_AddNumberToObject(sample(j, 0, 1), "optimized", 1);
}

/* fault must be one of its words; note text. */
static void e_fault(cJSON *j)
{
	cJSON_ReplaceItemInObject(sample(j, 0, 1), "fault", cJSON_CreateString("monitor"));
}

static void e_note(cJSON *j)
{
	cJSON_ReplaceItemInObject(sample(j, 0, 1), "note", cJSON_CreateNumber(3));
}

static void test_rejects(void **st)
{
	expect_reject(e_format, "format: not \"probecost-session\"");
	expect_reject(e_newer, "newer than this probecost reads");
	expect_reject(e_unknown, "evil: unknown member");
	expect_reject(e_dup, "kind: member given twice");
	expect_reject(e_missing, "configs: missing");
	expect_reject(e_kind, "kind: not");
	expect_reject(e_negwall, "configs[1].samples[2].wall_ns: -5 out of range");
	expect_reject(e_fracblock, "configs[0].samples[1].block: not an integer");
	expect_reject(e_hugewall, "wall_ns: 1.0000000000000001e+300 out of range");
	expect_reject(e_wallstr, "wall_ns: not a number");
	expect_reject(e_reason, "fail_reason: longer than 255 bytes");
	expect_reject(e_ctrl, "configs[0].monitor: longer than");
	expect_reject(e_utf8, "cmdline: longer than");
	expect_reject(e_seed, "seed: not a");
	expect_reject(e_seedbig, "seed: not a 64-bit");
	expect_reject(e_ns, "series[1].ns: element 3 is not a time");
	expect_reject(e_env, "env: not an object or null");
	expect_reject(e_sample_obj, "configs[1].samples[4]: not an object");
	expect_reject(e_optimized, "configs[0].samples[1].optimized: not true or false");
	expect_reject(e_fault,
		      "configs[0].samples[1].fault: not \"none\", \"program\" or \"tool\"");
	expect_reject(e_note, "configs[0].samples[1].note: not a string of at most 127 bytes of "
			      "UTF-8 text");
}

/*
 * optimized is written only when known; an export without it (older
 * probecost, or unknown) and an explicit null both read back as unknown.
 */
static void test_optimized(void **st)
{
	struct pcost_session a, b;
	char err[256];
	cJSON *j;

	synth_session(&a, PCOST_SESSION_PROBES, 3, 1.0);
	j = pcost_session_to_json(&a);
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(sample(j, 1, 0), "optimized")));
	assert_null(cJSON_GetObjectItem(sample(j, 1, 1), "optimized"));
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(sample(j, 1, 2), "optimized")));
	cJSON_DeleteItemFromObject(sample(j, 1, 0), "optimized");
	cJSON_ReplaceItemInObject(sample(j, 1, 2), "optimized", cJSON_CreateNull());
	assert_int_equal(pcost_session_from_json(j, &b, err, sizeof(err)), 0);
	assert_int_equal(b.configs[1].samples[0].optimized, 0);
	assert_int_equal(b.configs[1].samples[1].optimized, 0);
	assert_int_equal(b.configs[1].samples[2].optimized, 0);
	pcost_session_release(&b);
	cJSON_Delete(j);
	pcost_session_release(&a);
}

/*
 * How a run ended is written only when recorded; an older export without it
 * reads back as not recorded (fault unknown, no check, no note), and the row's
 * outcome is derived from what the runs have.
 */
static void test_ending(void **st)
{
	struct pcost_session a, b;
	char err[256];
	cJSON *j;

	synth_session(&a, PCOST_SESSION_PROBES, 4, 1.0);
	j = pcost_session_to_json(&a);
	assert_null(cJSON_GetObjectItem(sample(j, 1, 0), "fault"));
	assert_string_equal(cJSON_GetObjectItem(sample(j, 1, 3), "fault")->valuestring, "tool");
	assert_string_equal(cJSON_GetObjectItem(sample(j, 1, 2), "fault")->valuestring, "program");
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(sample(j, 1, 0), "check")));
	assert_null(cJSON_GetObjectItem(sample(j, 1, 1), "check"));
	assert_string_equal(cJSON_GetObjectItem(sample(j, 1, 1), "note")->valuestring,
			    "lost 1 events, \"said\" the tool");
	for (int k = 0; k < 4; k++) {
		cJSON_DeleteItemFromObject(sample(j, 1, k), "fault");
		cJSON_DeleteItemFromObject(sample(j, 1, k), "check");
		cJSON_DeleteItemFromObject(sample(j, 1, k), "note");
	}
	assert_int_equal(pcost_session_from_json(j, &b, err, sizeof(err)), 0);
	for (int k = 0; k < 4; k++) {
		assert_int_equal(b.configs[1].samples[k].fault, PCOST_FAULT_UNKNOWN);
		assert_int_equal(b.configs[1].samples[k].check, 0);
		assert_string_equal(b.configs[1].samples[k].note, "");
	}
	pcost_session_release(&b);
	cJSON_Delete(j);
	pcost_session_release(&a);
}

static void test_not_object(void **st)
{
	struct pcost_session b;
	char err[128];
	cJSON *j = cJSON_Parse("[1,2]");

	assert_int_equal(pcost_session_from_json(j, &b, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "a session is a JSON object"));
	cJSON_Delete(j);
	assert_int_equal(pcost_session_from_json(NULL, &b, err, sizeof(err)), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_run),
		cmocka_unit_test(test_roundtrip_probes),
		cmocka_unit_test(test_roundtrip_counters),
		cmocka_unit_test(test_roundtrip_nulls),
		cmocka_unit_test(test_rejects),
		cmocka_unit_test(test_not_object),
		cmocka_unit_test(test_optimized),
		cmocka_unit_test(test_ending),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
