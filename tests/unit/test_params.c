// SPDX-License-Identifier: MIT
/* test_params: workload key=value parsing, ranges, report lines; and util's number parsers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>
#include <sys/syscall.h>

#include "core/result.h"
#include "workloads/workload.h"

static int parse(const char *name, char *err, struct pcost_params *p, int argc, ...)
{
	char *argv[16];
	va_list ap;

	va_start(ap, argc);
	for (int i = 0; i < argc; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	return pcost_params_parse(pcost_workload_find(name), argc, argv, p, err, 256);
}

static void test_defaults(void **state)
{
	struct pcost_params p;
	char err[256], buf[256];

	assert_int_equal(parse("pipe", err, &p, 0), 0);
	assert_int_equal(pcost_param_get(&p, "loops"), 1000000);
	assert_int_equal(pcost_param_get(&p, "mode"), 0);
	pcost_params_format(&p, buf, sizeof(buf));
	assert_string_equal(buf, "loops=1000000 mode=process");
	/* cpu= is written only when given (the records before it stay comparable). */
	assert_int_equal(parse("pipe", err, &p, 1, "cpu=same"), 0);
	pcost_params_format(&p, buf, sizeof(buf));
	assert_string_equal(buf, "loops=1000000 mode=process cpu=same");
	assert_int_equal(parse("messaging", err, &p, 0), 0);
	pcost_params_format(&p, buf, sizeof(buf));
	assert_string_equal(buf, "groups=10 fds=20 loops=100 size=100 ipc=socket mode=process");
	assert_int_equal(parse("syscall", err, &p, 0), 0);
	assert_int_equal(pcost_param_get(&p, "loops"), 10000000);
	assert_int_equal(pcost_param_get(&p, "nr"), SYS_getppid);
}

static void test_values_and_enums(void **state)
{
	struct pcost_params p;
	char err[256], buf[256];

	assert_int_equal(parse("pipe", err, &p, 2, "loops=5k", "mode=thread"), 0);
	assert_int_equal(pcost_param_get(&p, "loops"), 5000);
	assert_int_equal(pcost_param_get(&p, "mode"), 1);
	assert_int_equal(parse("spawn", err, &p, 1, "kind=vfork-exec"), 0);
	pcost_params_format(&p, buf, sizeof(buf));
	assert_string_equal(buf, "kind=vfork-exec loops=10000");
	assert_int_equal(parse("syscall", err, &p, 1, "nr=99999"), 0);
	assert_int_equal(pcost_param_get(&p, "nr"), 99999);
	assert_int_equal(parse("syscall", err, &p, 1, "nr=getpid"), 0);
	assert_int_equal(pcost_param_get(&p, "nr"), SYS_getpid);
}

static void test_bad_input_names_parameter_and_range(void **state)
{
	struct pcost_params p;
	char err[256];

	assert_int_equal(parse("pipe", err, &p, 1, "loop=5"), -EINVAL);
	assert_string_equal(err,
			    "workload pipe: unknown parameter 'loop' (known: loops, mode, cpu)");
	assert_int_equal(parse("pipe", err, &p, 1, "loops=abc"), -EINVAL);
	assert_string_equal(err,
			    "workload pipe: loops='abc' is not a number: an integer 1-1000000000");
	assert_int_equal(parse("pipe", err, &p, 1, "loops=0"), -EINVAL);
	assert_string_equal(err,
			    "workload pipe: loops='0' is out of range: an integer 1-1000000000");
	assert_int_equal(parse("pipe", err, &p, 1, "loops=-3"), -EINVAL);
	assert_int_equal(parse("messaging", err, &p, 1, "groups=1001"), -EINVAL);
	assert_string_equal(err,
			    "workload messaging: groups='1001' is out of range: an integer 1-1000");
	assert_int_equal(parse("pipe", err, &p, 1, "mode=fiber"), -EINVAL);
	assert_string_equal(err, "workload pipe: mode='fiber' is not valid: one of process|thread");
	assert_int_equal(parse("pipe", err, &p, 1, "loops"), -EINVAL);
	assert_string_equal(err, "workload pipe: 'loops' is not key=value");
	assert_int_equal(parse("syscall", err, &p, 1, "nr=frobnicate"), -EINVAL);
}

static void test_report_line_round_trip(void **state)
{
	uint64_t events;
	pcost_ns ns;
	char unit[32];

	assert_int_equal(pcost_report_parse("events=63 unit=message timed_ns=644148\n", &events,
					    unit, sizeof(unit), &ns, NULL, NULL),
			 0);
	assert_int_equal(events, 63);
	assert_int_equal(ns, 644148);
	assert_string_equal(unit, "message");
	assert_int_equal(pcost_report_parse("unit=x timed_ns=5", &events, unit, sizeof(unit), &ns,
					    NULL, NULL),
			 -EINVAL);
	assert_int_equal(
		pcost_report_parse("events=x", &events, unit, sizeof(unit), &ns, NULL, NULL),
		-EINVAL);
}

/*
 * server's rate and dist are quiet: left out of the k=v list unless given, so a
 * closed loop's records read as before they existed; http's url is text.
 */
static void test_quiet_and_text(void **state)
{
	struct pcost_params p;
	char err[256], buf[512];

	assert_int_equal(parse("server", err, &p, 0), 0);
	pcost_params_format(&p, buf, sizeof(buf));
	assert_string_equal(buf, "role=both conns=4 requests=20000 work=2000 size=128 port=0");
	assert_int_equal(parse("server", err, &p, 2, "rate=500", "dist=poisson"), 0);
	pcost_params_format(&p, buf, sizeof(buf));
	assert_string_equal(buf, "role=both conns=4 requests=20000 work=2000 size=128 port=0 "
				 "rate=500 dist=poisson");
	assert_int_equal(parse("server", err, &p, 1, "dist=poisson"), -EINVAL);
	assert_non_null(strstr(err, "give rate=R with it"));

	assert_int_equal(parse("http", err, &p, 2, "url=http://127.0.0.1:8080/a?b=1", "rate=10"),
			 0);
	assert_string_equal(pcost_param_text(&p, "url"), "http://127.0.0.1:8080/a?b=1");
	pcost_params_format(&p, buf, sizeof(buf));
	assert_string_equal(buf, "url=http://127.0.0.1:8080/a?b=1 rate=10 conns=4 dist=uniform "
				 "duration=5");
	assert_int_equal(parse("http", err, &p, 1, "rate=10"), -EINVAL);
	assert_non_null(strstr(err, "give url=http://HOST:PORT/PATH and rate=R"));
	assert_int_equal(parse("http", err, &p, 2, "url=http://a b/", "rate=10"), -EINVAL);
	assert_non_null(strstr(err, "without blanks, quotes or backslashes"));
	assert_int_equal(parse("http", err, &p, 2, "url=https://127.0.0.1/", "rate=10"), -EINVAL);
	assert_non_null(strstr(err, "no https"));
	assert_int_equal(parse("http", err, &p, 2, "url=http://127.0.0.1:0/", "rate=10"), -EINVAL);
	assert_non_null(strstr(err, "the port is not a number 1-65535"));
	assert_int_equal(parse("http", err, &p, 2, "url=http://localhost/", "rate=10"), 0);
	(void)state;
}

static void test_util_parsers(void **state)
{
	uint64_t v, mask;
	double d;
	char *argv[] = { "perf", "stat", "-e", "a b", "it's" }, *s;

	assert_int_equal(pcost_parse_u64("2M", 0, UINT64_MAX, &v), 0);
	assert_int_equal(v, 2000000);
	assert_int_equal(pcost_parse_u64("18446744073709551616", 0, UINT64_MAX, &v), -ERANGE);
	assert_int_equal(pcost_parse_u64(" 5", 0, 10, &v), -EINVAL);
	assert_int_equal(pcost_parse_u64("5x", 0, 10, &v), -EINVAL);
	assert_int_equal(pcost_parse_double("0.25", 0, 1, &d), 0);
	assert_true(d == 0.25);
	assert_int_equal(pcost_parse_double("nan", 0, 1, &d), -EINVAL);
	assert_int_equal(pcost_parse_cpulist("0,2-3", &mask), 0);
	assert_int_equal(mask, 0xd);
	assert_int_equal(pcost_parse_cpulist("3-1", &mask), -EINVAL);
	assert_int_equal(pcost_parse_cpulist("64", &mask), -EINVAL);
	s = pcost_join_argv(5, argv);
	assert_string_equal(s, "perf stat -e 'a b' 'it'\\''s'");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_values_and_enums),
		cmocka_unit_test(test_bad_input_names_parameter_and_range),
		cmocka_unit_test(test_report_line_round_trip),
		cmocka_unit_test(test_quiet_and_text),
		cmocka_unit_test(test_util_parsers),
	};

	return cmocka_run_group_tests_name("params", tests, NULL, NULL);
}
