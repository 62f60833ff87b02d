// SPDX-License-Identifier: MIT
/*
 * test_metric: --metric specs and their values: a synthetic output whose values are known
 * exactly, and the presets on real outputs of pgbench, redis-benchmark, fio and sysbench
 * (tests/fixtures/metric/, made by its capture.sh), with the exact values printed in them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/metric.h"

#define FIXTURES "tests/fixtures/metric/"
#define ERRLEN 512

static char *fixture(const char *name, size_t *len)
{
	char path[256], *buf;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), FIXTURES "%s", name);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s (run from the repository root)", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void parse_ok(struct pcost_metric_set *set, const char *arg)
{
	char err[ERRLEN] = "";

	if (pcost_metric_parse(arg, set, err, sizeof(err)) != 0)
		fail_msg("'%s' refused: %s", arg, err);
}

static const struct pcost_metric *find(const struct pcost_metric_set *set, const char *name)
{
	for (size_t i = 0; i < set->n; i++)
		if (!strcmp(set->m[i]->name, name))
			return set->m[i];
	fail_msg("no metric '%s'", name);
	return NULL;
}

/* The value of metric name in out, which must be there in unit. */
static double value(const struct pcost_metric_set *set, const char *name, const char *out,
		    size_t len, const char *unit)
{
	struct pcost_metric_value v;
	char err[ERRLEN] = "";

	if (pcost_metric_extract(find(set, name), out, len, err, sizeof(err), &v))
		fail_msg("%s: %s", name, err);
	assert_string_equal(v.unit, unit);
	return v.value;
}

/* pcost_metric_extract of metric name, err of ERRLEN bytes. */
static int extract(const struct pcost_metric_set *set, const char *name, const char *out,
		   size_t len, char *err, struct pcost_metric_value *v)
{
	return pcost_metric_extract(find(set, name), out, len, err, ERRLEN, v);
}

static void missing(const struct pcost_metric_set *set, const char *name, const char *out,
		    size_t len)
{
	struct pcost_metric_value v;
	char err[ERRLEN];

	assert_int_equal(pcost_metric_extract(find(set, name), out, len, err, sizeof(err), &v),
			 -ENOENT);
}

/* Equal to the printed decimal (a conversion may leave the last bit). */
static void assert_value(double got, double want)
{
	if (fabs(got - want) > 1e-12 * fabs(want))
		fail_msg("got %.12g, want %.12g", got, want);
}

/* ---- a synthetic output, every value known ------------------------------------------------ */

static const char synthetic[] = "warming up\n"
				"result: 12 ops\n"
				"latency: 250 us\n"
				"result: 1,234.5 ops\n"
				"latency: 0.75 ms\r\n"
				"ratio=1.2e3 rate=22.5k\n"
				"stderr: done\n";

static void synthetic_values(void **state)
{
	struct pcost_metric_set set = { 0 };
	struct pcost_metric_value v;
	size_t len = sizeof(synthetic) - 1;
	char err[ERRLEN];

	(void)state;
	parse_ok(&set, "ops=^result: ([0-9.,]+) ops$");
	parse_ok(&set, "lat:lower=^latency: ([0-9.]+ ?[mu]?s)");
	parse_ok(&set, "lat_auto=latency: ([0-9.]+) [mu]s");
	parse_ok(&set, "ratio=ratio=([^ ]+)");
	parse_ok(&set, "rate=rate=([0-9.]+k)");
	parse_ok(&set, "nope=absent: ([0-9]+)");
	parse_ok(&set, "word=^(warming) up");
	assert_int_equal(set.n, 7);

	/* The last match wins: 1,234.5 after 12; 0.75 ms after 250 us. */
	assert_value(value(&set, "ops", synthetic, len, ""), 1234.5);
	assert_int_equal(extract(&set, "ops", synthetic, len, err, &v), 0);
	assert_int_equal(v.better, PCOST_METRIC_HIGHER);
	assert_value(value(&set, "lat", synthetic, len, "ms"), 0.75);
	/* The unit after the group, in the match; unsaid direction: lower for a time. */
	assert_int_equal(extract(&set, "lat_auto", synthetic, len, err, &v), 0);
	assert_value(v.value, 0.75);
	assert_string_equal(v.unit, "ms");
	assert_int_equal(v.better, PCOST_METRIC_LOWER);
	/* The user's direction stands whatever the unit. */
	assert_int_equal(extract(&set, "lat", synthetic, len, err, &v), 0);
	assert_int_equal(v.better, PCOST_METRIC_LOWER);
	/* Before the last one, only in the part of the output given. */
	assert_value(value(&set, "ops", synthetic, 30, ""), 12);
	assert_value(value(&set, "lat", synthetic, 45, "us"), 250);
	assert_value(value(&set, "ratio", synthetic, len, ""), 1200);
	assert_value(value(&set, "rate", synthetic, len, ""), 22500);

	assert_int_equal(extract(&set, "nope", synthetic, len, err, &v), -ENOENT);
	assert_non_null(strstr(err, "metric 'nope': no match for /absent: ([0-9]+)/"));
	/* The last lines, blanks skipped, carriage returns as line ends. */
	assert_non_null(strstr(err, "its last lines: latency: 0.75 ms | ratio=1.2e3 rate=22.5k | "
				    "stderr: done"));
	assert_null(strchr(err, '\n'));
	assert_int_equal(extract(&set, "word", synthetic, len, err, &v), -EINVAL);
	assert_string_equal(err, "metric 'word': the match 'warming' is not a number");
	pcost_metric_set_release(&set);
}

/* Bytes past a NUL are searched too (REG_STARTEND), nothing past outlen; a NUL is a blank in
 * the last lines. */
static void nul_bytes(void **state)
{
	static const char out[] = "junk\0\ntps = 42\nmore\0";
	struct pcost_metric_set set = { 0 };
	struct pcost_metric_value v;
	char err[ERRLEN];

	(void)state;
	parse_ok(&set, "tps=^tps = ([0-9]+)$");
	assert_value(value(&set, "tps", out, sizeof(out) - 1, ""), 42);
	parse_ok(&set, "absent=absent ([0-9]+)");
	assert_int_equal(extract(&set, "absent", "a\0b\nc", 5, err, &v), -ENOENT);
	assert_non_null(strstr(err, "its last lines: a b | c"));
	missing(&set, "tps", out, 9);
	pcost_metric_set_release(&set);
}

/* ---- numbers and units ----------------------------------------------------------------------- */

static void numbers(void **state)
{
	static const struct {
		const char *s;
		double v;
		const char *unit;
	} ok[] = {
		{ "1,234,567.89", 1234567.89, "" },
		{ "  42 ", 42, "" },
		{ "-2.5e-3", -0.0025, "" },
		{ "12.5k", 12500, "" },
		{ "3M", 3e6, "" },
		{ "3MiB/s", 3, "MiB/s" },
		{ "5ms", 5, "ms" },
		{ "0.75 ms", 0.75, "ms" },
		{ "1e3x", 1000, "x" },
		{ "7 tps", 7, "tps" },
		{ "22.5k,", 22500, "," },
	};
	/* Not ours: a decimal comma, a comma then not three digits, a version. */
	static const char *const bad[] = { "abc", "", ".", "-", "1.2.3", "1,5", "1,23", ",123" };
	char unit[16];
	double v;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		int rc = pcost_metric_number(ok[i].s, strlen(ok[i].s), &v, unit, sizeof(unit));

		if (rc || fabs(v - ok[i].v) > 1e-12 * fabs(ok[i].v) || strcmp(unit, ok[i].unit))
			fail_msg("'%s': rc %d, %g '%s'; want %g '%s'", ok[i].s, rc, v, unit,
				 ok[i].v, ok[i].unit);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (pcost_metric_number(bad[i], strlen(bad[i]), &v, unit, sizeof(unit)) != -EINVAL)
			fail_msg("'%s' taken for a number (%g)", bad[i], v);
}

static void conversions(void **state)
{
	double v;

	(void)state;
	assert_int_equal(pcost_metric_convert(1.5, "ms", "us", &v), 0);
	assert_value(v, 1500);
	assert_int_equal(pcost_metric_convert(6304, "nsec", "us", &v), 0);
	assert_value(v, 6.304);
	assert_int_equal(pcost_metric_convert(2, "MiB/s", "KiB/s", &v), 0);
	assert_value(v, 2048);
	assert_int_equal(pcost_metric_convert(1, "MB/sec", "KiB/s", &v), 0);
	assert_value(v, 1e6 / 1024);
	assert_int_equal(pcost_metric_convert(3, "tps", "tps", &v), 0);
	assert_value(v, 3);
	assert_int_equal(pcost_metric_convert(1, "ms", "KiB/s", &v), -EINVAL);
	assert_int_equal(pcost_metric_convert(1, "MiB", "MiB/s", &v), -EINVAL);
	assert_int_equal(pcost_metric_convert(1, "tps", "req/s", &v), -EINVAL);
	assert_int_equal(pcost_metric_convert(1, "%", "ms", &v), -EINVAL);
}

/* ---- bad specs: -EINVAL, one line naming the argument, the set unchanged ------------------- */

static void bad_specs(void **state)
{
	static const struct {
		const char *arg, *says;
	} bad[] = {
		{ "tps", "expected NAME[:higher|lower]=REGEX or a preset (pgbench, "
			 "redis-benchmark, fio, sysbench, wrk)" },
		{ "tps=([0-9]", "the regex does not compile: " },
		{ "tps=[0-9]+", "the regex has 0 capture groups, it needs exactly one" },
		{ "tps=(a)|(b)", "the regex has 2 capture groups" },
		{ "tps:faster=(x)", "after 'tps:' give higher or lower" },
		{ "1tps=(x)", "name '1tps' must be a letter then letters, digits or _" },
		{ "t-ps=(x)", "name 't-ps' must be" },
		{ "=(x)", "the name before '=' must be 1 to 47 characters" },
		{ "tps=", "the regex after '=' is empty" },
		{ "tps=(multi\nline", "'tps=(multi\\x0aline'" },
		{ "tps=(x)", "a metric named 'tps' is given already (by --metric pgbench)" },
		{ "pgbench", "--metric 'pgbench': a metric named 'tps' is given already" },
	};
	struct pcost_metric_set set = { 0 };
	char err[ERRLEN];

	(void)state;
	parse_ok(&set, "pgbench");
	assert_int_equal(set.n, 5);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (pcost_metric_parse(bad[i].arg, &set, err, sizeof(err)) != -EINVAL)
			fail_msg("'%s' accepted", bad[i].arg);
		if (!strstr(err, bad[i].says) || strchr(err, '\n') || strncmp(err, "--metric ", 9))
			fail_msg("'%s': said '%s', want '%s' on one line", bad[i].arg, err,
				 bad[i].says);
		assert_int_equal(set.n, 5);
	}
	pcost_metric_set_release(&set);
}

/* ---- presets on real outputs ------------------------------------------------------------- */

/* The figures printed in each fixture, as the preset must read them (NAN: not printed there). */
static const struct expect {
	const char *preset, *file, *metric, *unit;
	double value;
} expected[] = {
	{ "pgbench", "pgbench-select.txt", "tps", "tps", 91630.529858 },
	{ "pgbench", "pgbench-select.txt", "latency_avg", "ms", 0.022 },
	{ "pgbench", "pgbench-select.txt", "latency_stddev", "ms", NAN }, /* with -P only */
	{ "pgbench", "pgbench-tpcb.txt", "tps", "tps", 14744.913005 },
	{ "pgbench", "pgbench-tpcb.txt", "latency_avg", "ms", 0.136 },
	/* Progress lines (tps, lat each second) do not count: the summary does. */
	{ "pgbench", "pgbench-progress.txt", "tps", "tps", 25284.612388 },
	{ "pgbench", "pgbench-progress.txt", "latency_avg", "ms", 0.039 },
	{ "pgbench", "pgbench-progress.txt", "latency_stddev", "ms", 0.103 },
	/* --rate: the latency from each scheduled start, holding the lag printed beside it */
	{ "pgbench", "pgbench-rate.txt", "tps", "tps", 482.443524 },
	{ "pgbench", "pgbench-rate.txt", "latency_avg", "ms", 19.935 },
	{ "pgbench", "pgbench-rate.txt", "schedule_lag_avg", "ms", 19.003 },
	{ "pgbench", "pgbench-rate.txt", "schedule_lag_max", "ms", 321.713 },
	{ "pgbench", "pgbench-select.txt", "schedule_lag_avg", "ms", NAN }, /* with --rate only */
	/* wrk picks each latency's unit: 100.00us, 8.54ms (the figures are in ms). */
	{ "wrk", "wrk-latency.txt", "rps", "req/s", 12675.70 },
	{ "wrk", "wrk-latency.txt", "latency_avg", "ms", 1.06 },
	{ "wrk", "wrk-latency.txt", "latency_max", "ms", 21.96 },
	{ "wrk", "wrk-latency.txt", "latency_p50", "ms", 0.1 },
	{ "wrk", "wrk-latency.txt", "latency_p99", "ms", 8.54 },
	{ "wrk", "wrk.txt", "rps", "req/s", 12749.55 },
	{ "wrk", "wrk.txt", "latency_avg", "ms", 0.96 },
	{ "wrk", "wrk.txt", "latency_p99", "ms", NAN }, /* with --latency only */
	/* The default report of -t set,get,lpush,lrange_100. */
	{ "redis-benchmark", "redis-default.txt", "set_rps", "req/s", 66666.67 },
	{ "redis-benchmark", "redis-default.txt", "get_rps", "req/s", 62500.00 },
	/* Not the LPUSH that fills the list for LRANGE (71428.57), which comes after. */
	{ "redis-benchmark", "redis-default.txt", "lpush_rps", "req/s", 68965.52 },
	{ "redis-benchmark", "redis-default.txt", "lrange_100_rps", "req/s", 57142.86 },
	{ "redis-benchmark", "redis-default.txt", "incr_rps", "req/s", NAN },
	{ "redis-benchmark", "redis-default.txt", "lrange_300_rps", "req/s", NAN },
	/* -q: progress lines before some results, carriage returns between. */
	{ "redis-benchmark", "redis-q.txt", "ping_inline_rps", "req/s", 83333.34 },
	{ "redis-benchmark", "redis-q.txt", "set_rps", "req/s", 86956.52 },
	{ "redis-benchmark", "redis-q.txt", "lpush_rps", "req/s", 64516.13 },
	{ "redis-benchmark", "redis-q.txt", "zpopmin_rps", "req/s", 68965.52 },
	{ "redis-benchmark", "redis-q.txt", "lrange_600_rps", "req/s", 22222.22 },
	{ "redis-benchmark", "redis-q.txt", "mset_rps", "req/s", 68965.52 },
	{ "redis-benchmark", "redis-q.txt", "xadd_rps", "req/s", NAN },
	{ "redis-benchmark", "redis-csv.txt", "set_rps", "req/s", 83333.34 },
	{ "redis-benchmark", "redis-csv.txt", "lpush_rps", "req/s", 83333.34 },
	{ "redis-benchmark", "redis-csv.txt", "lrange_300_rps", "req/s", 31250.00 },
	{ "redis-benchmark", "redis-csv.txt", "mset_rps", "req/s", 68965.52 },
	{ "fio", "fio-randread.txt", "read_iops", "IOPS", 19.3e3 },
	{ "fio", "fio-randread.txt", "read_bw", "KiB/s", 75.5 * 1024 },
	{ "fio", "fio-randread.txt", "read_clat_p50", "us", 44 },
	{ "fio", "fio-randread.txt", "read_clat_p99", "us", 81 },
	{ "fio", "fio-randread.txt", "read_clat_p999", "us", 1795 },
	{ "fio", "fio-randread.txt", "write_iops", "IOPS", NAN },
	{ "fio", "fio-randread.txt", "write_clat_p99", "us", NAN },
	/* Both directions: reads in usec, writes in nsec (converted to us). */
	{ "fio", "fio-randrw.txt", "read_iops", "IOPS", 17.7e3 },
	{ "fio", "fio-randrw.txt", "read_bw", "KiB/s", 69.3 * 1024 },
	{ "fio", "fio-randrw.txt", "read_clat_p50", "us", 46 },
	{ "fio", "fio-randrw.txt", "read_clat_p99", "us", 73 },
	{ "fio", "fio-randrw.txt", "read_clat_p999", "us", 167 },
	{ "fio", "fio-randrw.txt", "write_iops", "IOPS", 17.8e3 },
	{ "fio", "fio-randrw.txt", "write_bw", "KiB/s", 69.4 * 1024 },
	{ "fio", "fio-randrw.txt", "write_clat_p50", "us", 2.768 },
	{ "fio", "fio-randrw.txt", "write_clat_p99", "us", 6.304 },
	{ "fio", "fio-randrw.txt", "write_clat_p999", "us", 25.728 },
	{ "fio", "fio-randwrite.txt", "write_iops", "IOPS", 585e3 },
	{ "fio", "fio-randwrite.txt", "write_bw", "KiB/s", 286 * 1024 },
	{ "fio", "fio-randwrite.txt", "write_clat_p50", "us", 0.716 },
	{ "fio", "fio-randwrite.txt", "write_clat_p99", "us", 40.704 },
	{ "fio", "fio-randwrite.txt", "write_clat_p999", "us", 54.528 },
	{ "fio", "fio-randwrite.txt", "read_iops", "IOPS", NAN },
	{ "fio", "fio-randwrite.txt", "read_clat_p99", "us", NAN },
	/* Events per second: total number of events / total time. */
	{ "sysbench", "sysbench-cpu.txt", "events_per_s", "events/s", 9152 / 2.0031 },
	{ "sysbench", "sysbench-cpu.txt", "latency_p95", "ms", 0.21 },
	{ "sysbench", "sysbench-fileio.txt", "events_per_s", "events/s", 18768 / 1.0098 },
	{ "sysbench", "sysbench-fileio.txt", "latency_p95", "ms", 0 },
};

static void presets_on_real_outputs(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
		const struct expect *e = &expected[i];
		struct pcost_metric_set set = { 0 };
		size_t len;
		char *out = fixture(e->file, &len);

		parse_ok(&set, e->preset);
		if (isnan(e->value))
			missing(&set, e->metric, out, len);
		else
			assert_value(value(&set, e->metric, out, len, e->unit), e->value);
		free(out);
		pcost_metric_set_release(&set);
	}
}

/* A whole preset on one output: optional figures may be missing, not required ones, nor all. */
static void presets_as_sets(void **state)
{
	struct pcost_metric_set pg = { 0 }, fio = { 0 };
	struct pcost_metric_value v[10];
	bool found[10];
	char err[ERRLEN], *out;
	size_t len;

	(void)state;
	parse_ok(&pg, "pgbench");
	parse_ok(&fio, "fio");
	assert_int_equal(fio.n, 10);
	out = fixture("pgbench-select.txt", &len);
	assert_int_equal(pcost_metric_extract_set(&pg, out, len, v, found, err, sizeof(err)), 0);
	assert_true(found[0] && found[1] && !found[2]);
	assert_int_equal(v[0].better, PCOST_METRIC_HIGHER);
	assert_int_equal(v[1].better, PCOST_METRIC_LOWER);
	free(out);
	out = fixture("fio-randread.txt", &len);
	assert_int_equal(pcost_metric_extract_set(&fio, out, len, v, found, err, sizeof(err)), 0);
	for (int i = 0; i < 10; i++)
		assert_int_equal(found[i], i < 5); /* read_* only */
	free(out);
	/* Another tool's output: pgbench's tps is required; fio has none of its figures. */
	out = fixture("redis-q.txt", &len);
	assert_int_equal(pcost_metric_extract_set(&pg, out, len, v, found, err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "metric 'tps': no match for /^tps = "));
	assert_non_null(strstr(err, "LRANGE_600 (first 600 elements): 22222.22 requests per "
				    "second, p50=0.095 msec | MSET (10 keys): 68965.52 requests "
				    "per second, p50=0.031 msec"));
	assert_int_equal(pcost_metric_extract_set(&fio, out, len, v, found, err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "metric preset 'fio': none of its figures in the output"));
	free(out);
	pcost_metric_set_release(&pg);
	pcost_metric_set_release(&fio);
}

/* Every preset compiles, and its metrics' names are unique across presets but for none. */
static void presets_compile(void **state)
{
	(void)state;
	for (const struct pcost_metric_preset *p = pcost_metric_presets; p->name; p++) {
		struct pcost_metric_set set = { 0 };

		parse_ok(&set, p->name);
		assert_true(set.n > 0);
		for (size_t i = 0; i < set.n; i++) {
			assert_string_equal(set.m[i]->preset, p->name);
			assert_true(set.m[i]->better != PCOST_METRIC_AUTO && set.m[i]->unit[0]);
		}
		pcost_metric_set_release(&set);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(synthetic_values), cmocka_unit_test(nul_bytes),
		cmocka_unit_test(numbers),	    cmocka_unit_test(conversions),
		cmocka_unit_test(bad_specs),	    cmocka_unit_test(presets_on_real_outputs),
		cmocka_unit_test(presets_as_sets),  cmocka_unit_test(presets_compile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
