// SPDX-License-Identifier: MIT
/*
 * metric_presets: the figures of the load generators Debian ships, as their
 * real outputs print them (tests/fixtures/metric/ holds one of each, made by
 * its capture.sh; test_metric pins the values in them).
 */
#include <regex.h>
#include <string.h>

#include "run/metric.h"

#define HIGHER PCOST_METRIC_HIGHER
#define LOWER PCOST_METRIC_LOWER

/* One row: NAME, better, unit, optional, then its patterns { re, cflags, vgroup, ugroup }. */
#define ROW(n, b, u, opt, ...)                                                                     \
	{                                                                                          \
		.name = n, .better = b, .unit = u, .optional = opt, .pat = { __VA_ARGS__ }         \
	}

/*
 * pgbench (PostgreSQL 15): "tps = 6559.527714 (without initial connection
 * time)" (before 14: one tps line including connection set-up and one
 * excluding it, the one taken) and "latency average = 0.305 ms"; "latency
 * stddev" only with -P or --rate.  pgbench prints latencies to 1 us.  With
 * --rate (an open loop: transactions on a Poisson schedule) its latency counts
 * from each transaction's scheduled start, so the average holds the schedule
 * lag, which it also prints alone: "rate limit schedule lag: avg 19.003 (max
 * 321.713) ms".
 */
static const struct pcost_metric_row pgbench[] = {
	ROW("tps", HIGHER, "tps", false,
	    { "^tps = ([0-9.]+) \\((without initial connection time|excluding connections)",
	      REG_NEWLINE, 1, 0 }),
	ROW("latency_avg", LOWER, "ms", false,
	    { "^latency average = ([0-9.]+) (ms)$", REG_NEWLINE, 1, 2 }),
	ROW("latency_stddev", LOWER, "ms", true,
	    { "^latency stddev = ([0-9.]+) (ms)$", REG_NEWLINE, 1, 2 }),
	ROW("schedule_lag_avg", LOWER, "ms", true,
	    { "^rate limit schedule lag: avg ([0-9.]+) \\(max [0-9.]+\\) (ms)$", REG_NEWLINE, 1,
	      2 }),
	ROW("schedule_lag_max", LOWER, "ms", true,
	    { "^rate limit schedule lag: avg [0-9.]+ \\(max ([0-9.]+)\\) (ms)$", REG_NEWLINE, 1,
	      2 }),
	{ 0 },
};

/*
 * redis-benchmark (Redis 7) prints each test's requests per second in one of
 * three forms: -q ("SET: 74074.07 requests per second, p50=..."), --csv
 * ("\"SET\",\"74074.07\",...") and the default report ("====== SET ======" ...
 * "throughput summary: 74074.07 requests per second").  Each default block
 * starts after a carriage return (the progress line it clears), which keeps a
 * match inside one block.  One metric per test, named after it; a run of some
 * tests (-t set,get) has the others missing.
 */
#define REDIS(name, title)                                                                         \
	ROW(name "_rps", HIGHER, "req/s", true,                                                    \
	    { "(^|[\r\n])" title ": ([0-9.]+) requests per second", 0, 2, 0 },                     \
	    { "====== " title " ======[^\r]*throughput summary: ([0-9.]+) requests per second", 0, \
	      1, 0 },                                                                              \
	    { "(^|\n)\"" title "\",\"([0-9.]+)\"", 0, 2, 0 })

static const struct pcost_metric_row redis[] = {
	REDIS("ping_inline", "PING_INLINE"),
	REDIS("ping_mbulk", "PING_MBULK"),
	REDIS("set", "SET"),
	REDIS("get", "GET"),
	REDIS("incr", "INCR"),
	REDIS("lpush", "LPUSH"),
	REDIS("rpush", "RPUSH"),
	REDIS("lpop", "LPOP"),
	REDIS("rpop", "RPOP"),
	REDIS("sadd", "SADD"),
	REDIS("hset", "HSET"),
	REDIS("spop", "SPOP"),
	REDIS("zadd", "ZADD"),
	REDIS("zpopmin", "ZPOPMIN"),
	REDIS("lrange_100", "LRANGE_100 \\(first 100 elements\\)"),
	REDIS("lrange_300", "LRANGE_300 \\(first 300 elements\\)"),
	REDIS("lrange_500", "LRANGE_500 \\(first 500 elements\\)"),
	REDIS("lrange_600", "LRANGE_600 \\(first 600 elements\\)"),
	REDIS("mset", "MSET \\(10 keys\\)"),
	REDIS("xadd", "XADD"),
	{ 0 },
};

/*
 * fio 3.x normal output, per direction: "  read: IOPS=20.7k, BW=81.0MiB/s
 * (84.9MB/s)(...)", then its "clat percentiles (usec):" table, whose unit fio
 * picks (nsec, usec, msec) by magnitude.  The table's own characters
 * ([]| 0-9.th,= and newlines) keep a match inside it; [^|]* keeps it the table
 * of the direction named.  A job of numjobs > 1 needs group_reporting (else
 * the last job's figures win).  fio rounds IOPS and bandwidth to three
 * significant digits.
 */
#define FIO_HEAD(dir) "(^|\n) *" dir ": IOPS="
#define FIO_PCT(dir, pct)                                                                          \
	{                                                                                          \
		FIO_HEAD(dir)                                                                      \
		"[^|]*clat percentiles \\(([a-z]+)\\):[]| 0-9.th,=\n[]*" pct                       \
		"th=\\[ *([0-9]+)\\]",                                                             \
			0, 3, 2                                                                    \
	}
#define FIO(dir)                                                                                   \
	ROW(dir "_iops", HIGHER, "IOPS", true, { FIO_HEAD(dir) "([0-9.]+[kMG]?),", 0, 2, 0 }),     \
		ROW(dir "_bw", HIGHER, "KiB/s", true,                                              \
		    { FIO_HEAD(dir) "[^,\n]*, BW=([0-9.]+)([KMGT]?i?B/s)", 0, 2, 3 }),             \
		ROW(dir "_clat_p50", LOWER, "us", true, FIO_PCT(dir, "50\\.00")),                  \
		ROW(dir "_clat_p99", LOWER, "us", true, FIO_PCT(dir, "99\\.00")),                  \
		ROW(dir "_clat_p999", LOWER, "us", true, FIO_PCT(dir, "99\\.90"))

static const struct pcost_metric_row fio[] = {
	FIO("read"),
	FIO("write"),
	{ 0 },
};

/*
 * sysbench 1.0: every test ends with "total time: 2.0001s" and "total number
 * of events: 6056"; events per second is their ratio (the cpu test also prints
 * its own "events per second", the other tests do not).  The latency
 * percentile is the 95th unless --percentile says otherwise.
 */
static const struct pcost_metric_row sysbench[] = {
	{ .name = "events_per_s",
	  .better = HIGHER,
	  .unit = "events/s",
	  .optional = false,
	  .pat = { { "^ *total number of events: +([0-9]+)$", REG_NEWLINE, 1, 0 } },
	  .den = { "^ *total time: +([0-9.]+)s$", REG_NEWLINE, 1, 0 } },
	ROW("latency_p95", LOWER, "ms", true,
	    { "Latency \\(([a-z]+)\\):[a-z0-9:. \n]*95th percentile: +([0-9.]+)", 0, 2, 1 }),
	{ 0 },
};

/*
 * wrk 4.1 (a closed loop: each connection sends when its reply is back, so a
 * stalled server stalls it too; -w http is the open loop): "Requests/sec:
 * 12675.70", the "Thread Stats" line "    Latency     1.06ms    1.90ms
 * 21.96ms   89.84%" (avg, stdev, max) and, with --latency, the "Latency
 * Distribution" lines "     99%    8.54ms".  wrk picks each unit (us, ms, s).
 */
#define WRK_PCT(name, pct)                                                                         \
	ROW(name, LOWER, "ms", true, { "^ +" pct "% +([0-9.]+)([mu]?s)$", REG_NEWLINE, 1, 2 })

static const struct pcost_metric_row wrk[] = {
	ROW("rps", HIGHER, "req/s", false, { "^Requests/sec: +([0-9.]+)$", REG_NEWLINE, 1, 0 }),
	ROW("latency_avg", LOWER, "ms", false,
	    { "^ +Latency +([0-9.]+)([mu]?s) ", REG_NEWLINE, 1, 2 }),
	ROW("latency_max", LOWER, "ms", false,
	    { "^ +Latency +[0-9.]+[mu]?s +[0-9.]+[mu]?s +([0-9.]+)([mu]?s) ", REG_NEWLINE, 1, 2 }),
	WRK_PCT("latency_p50", "50"),
	WRK_PCT("latency_p99", "99"),
	{ 0 },
};

const struct pcost_metric_preset pcost_metric_presets[] = {
	{ "pgbench",
	  "PostgreSQL's pgbench: tps, latency average (and stddev; with --rate, schedule lag)",
	  pgbench },
	{ "redis-benchmark", "requests per second of each test (set_rps, get_rps, ...)", redis },
	{ "fio", "IOPS, bandwidth, clat p50/p99/p99.9 per direction (read_*, write_*)", fio },
	{ "sysbench", "events per second (total events / total time), latency p95", sysbench },
	{ "wrk",
	  "requests per second, latency avg and max (p50, p99 with --latency); a closed loop",
	  wrk },
	{ 0 },
};

const struct pcost_metric_preset *pcost_metric_preset_find(const char *name)
{
	for (const struct pcost_metric_preset *p = pcost_metric_presets; p->name; p++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}
