// SPDX-License-Identifier: MIT
/*
 * test_tracefs_formats: pcost_tracefs_formats() on a fixture copy of a tracefs
 * events/ tree (tests/fixtures/tracefs: the header page and three formats of a
 * 6.18 kernel), so the answers are the fixture's wherever it runs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <traceevent/event-parse.h>

#include "core/tracefs.h"

#define FIXTURE "tests/fixtures/tracefs"

static void test_systems_asked_for(void **state)
{
	const char *const systems[] = { "raw_syscalls", NULL };
	struct tep_handle *tep = pcost_tracefs_formats(FIXTURE, systems);
	struct tep_format_field *f;
	struct tep_event *ev;

	(void)state;
	assert_non_null(tep);
	assert_int_equal(tep_get_events_count(tep), 2); /* sys_enter, sys_exit: not sched */
	ev = tep_find_event_by_name(tep, "raw_syscalls", "sys_enter");
	assert_non_null(ev);
	assert_int_equal(ev->id, 443);
	f = tep_find_field(ev, "id");
	assert_non_null(f);
	assert_int_equal(f->offset, 8);
	assert_int_equal(f->size, 8);
	assert_null(tep_find_event_by_name(tep, "sched", "sched_switch"));
	assert_int_equal(tep_get_long_size(tep), (int)sizeof(long));
	assert_int_equal(tep_get_header_page_size(tep), 8); /* the commit field's size */
	tep_free(tep);
}

static void test_two_systems(void **state)
{
	const char *const systems[] = { "raw_syscalls", "sched", "no_such_system", NULL };
	struct tep_handle *tep = pcost_tracefs_formats(FIXTURE, systems);
	struct tep_event *ev;

	(void)state;
	assert_non_null(tep);
	assert_int_equal(tep_get_events_count(tep), 3);
	ev = tep_find_event_by_name(tep, "sched", "sched_switch");
	assert_non_null(ev);
	assert_non_null(tep_find_field(ev, "next_pid"));
	tep_free(tep);
}

static void test_nothing_to_read(void **state)
{
	const char *const none[] = { "no_such_system", NULL };
	const char *const raw[] = { "raw_syscalls", NULL };

	(void)state;
	assert_null(pcost_tracefs_formats(FIXTURE, none));	       /* no system found */
	assert_null(pcost_tracefs_formats("tests/fixtures/env", raw)); /* no header page */
	assert_null(pcost_tracefs_formats("/nonexistent-pcost-dir", raw));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_systems_asked_for),
		cmocka_unit_test(test_two_systems),
		cmocka_unit_test(test_nothing_to_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
