// SPDX-License-Identifier: MIT
/* cmd/cmd-measure-opts: one parser and one range table for run, probes and counters. */
#include "cmd/cmd-measure-opts.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd-options.h"
#include "core/util.h"
#include "run/limits.h"
#include "stats/analyze.h"

enum mopt_type { MOPT_U64, MOPT_DOUBLE, MOPT_FLAG, MOPT_OTHER };

/* The one table: each shared option's name, argument, type, range and what the range is in. */
static const struct mopt_row {
	enum pcost_mopt id;
	const char *name;
	enum mopt_type type;
	double lo, hi;
	const char *what; /* "a whole number", "seconds", ... */
} rows[] = {
	{ PCOST_MOPT_RUNS, "runs", MOPT_U64, 1, 100000, "a whole number" },
	{ PCOST_MOPT_WARMUP, "warmup", MOPT_U64, 0, 1000, "a whole number" },
	{ PCOST_MOPT_MIN_RUNS, "min-runs", MOPT_U64, 2, 100000, "a whole number" },
	{ PCOST_MOPT_MAX_RUNS, "max-runs", MOPT_U64, 2, 100000, "a whole number" },
	{ PCOST_MOPT_PRECISION_PP, "precision", MOPT_DOUBLE, 0.001, 100, "percentage points" },
	{ PCOST_MOPT_PRECISION_NS, "precision", MOPT_DOUBLE, 0.001, 1e6, "ns per hit" },
	{ PCOST_MOPT_PRECISION_REL, "precision-rel", MOPT_DOUBLE, 0.001, 1000,
	  "percent of the overhead" },
	{ PCOST_MOPT_MAX_TIME, "max-time", MOPT_DOUBLE, 0.001, 86400, "seconds" },
	{ PCOST_MOPT_TIMEOUT, "timeout", MOPT_DOUBLE, 0.001, 86400, "seconds" },
	{ PCOST_MOPT_READY_TIMEOUT, "ready-timeout", MOPT_DOUBLE, 0.001, 3600, "seconds" },
	{ PCOST_MOPT_SEED, "seed", MOPT_U64, 0, 0 /* all of uint64 */, "a whole number" },
	{ PCOST_MOPT_WASHOUT, "washout", MOPT_U64, 0, 100, "a whole number" },
	{ PCOST_MOPT_CPU, "cpu", MOPT_OTHER, 0, 0, NULL },
	{ PCOST_MOPT_THREADS, "threads", MOPT_OTHER, 1, 1024, NULL },
	{ PCOST_MOPT_FORMAT, "format", MOPT_OTHER, 0, 0, NULL },
	{ PCOST_MOPT_DB, "db", MOPT_OTHER, 0, 0, NULL },
	{ PCOST_MOPT_NO_STORE, "no-store", MOPT_FLAG, 0, 0, NULL },
};

static const struct mopt_row *row_of(int id)
{
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++)
		if ((int)rows[i].id == id)
			return &rows[i];
	return NULL;
}

void pcost_measure_opts_init(struct pcost_measure_opts *m)
{
	memset(m, 0, sizeof(*m));
	pcost_runner_opts_default(&m->ro);
	m->fmt = PCOST_FMT_TEXT;
}

struct option *pcost_measure_longopts(const struct option *own, const enum pcost_mopt *ids,
				      size_t n)
{
	size_t nown = 0, k = 0;
	struct option *o;

	while (own && own[nown].name)
		nown++;
	o = xcalloc(nown + n + 1, sizeof(*o));
	for (size_t i = 0; i < nown; i++)
		o[k++] = own[i];
	for (size_t i = 0; i < n; i++) {
		const struct mopt_row *r = row_of(ids[i]);

		if (!r)
			continue;
		o[k++] = (struct option){ r->name,
					  r->type == MOPT_FLAG ? no_argument : required_argument,
					  NULL, (int)r->id };
	}
	return o;
}

static int number(const struct mopt_row *r, const char *arg, uint64_t *u, double *d)
{
	if (r->type == MOPT_U64) {
		uint64_t hi = r->hi > 0 ? (uint64_t)r->hi : UINT64_MAX;

		if (pcost_parse_u64(arg, (uint64_t)r->lo, hi, u) == 0)
			return 0;
		return usage_error("--%s '%s': expected %s in %llu..%llu", r->name, arg, r->what,
				   (unsigned long long)r->lo, (unsigned long long)hi);
	}
	if (pcost_parse_double(arg, r->lo, r->hi, d) == 0)
		return 0;
	return usage_error("--%s '%s': expected %s in %g..%g", r->name, arg, r->what, r->lo, r->hi);
}

static int threads_opt(struct pcost_measure_opts *m, const struct mopt_row *r, const char *arg)
{
	char *copy = xstrdup(arg), *save = NULL;
	int rc = 0;

	m->nthreads = 0;
	if (!pcost_list_well_formed(arg))
		rc = -1;
	for (char *tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		uint64_t u;

		if (m->nthreads >= ARRAY_SIZE(m->threads) ||
		    pcost_parse_u64(tok, (uint64_t)r->lo, (uint64_t)r->hi, &u) < 0)
			rc = -1;
		else
			m->threads[m->nthreads++] = (unsigned)u;
	}
	free(copy);
	if (rc)
		return usage_error("--threads '%s': expected up to %zu thread counts in %g..%g, "
				   "comma separated (e.g. 1,2,4)",
				   arg, ARRAY_SIZE(m->threads), r->lo, r->hi);
	return 0;
}

static int cpu_opt(struct pcost_measure_opts *m, const char *arg)
{
	char why[320];

	if (pcost_parse_cpulist(arg, &m->ro.cpu_mask) < 0 || !m->ro.cpu_mask)
		return usage_error("--cpu '%s': expected a CPU list like 0 or 0,2 or 0-3", arg);
	if (pcost_cpus_usable(m->ro.cpu_mask, why, sizeof(why)))
		return usage_error("--cpu '%s': %s", arg, why);
	snprintf(m->cpu_text, sizeof(m->cpu_text), "%s", arg);
	return 0;
}

int pcost_measure_opt(struct pcost_measure_opts *m, int c, const char *arg)
{
	const struct mopt_row *r = row_of(c);
	uint64_t u = 0;
	double d = 0;

	if (!r)
		return PCOST_MOPT_NOT_MINE;
	if ((r->type == MOPT_U64 || r->type == MOPT_DOUBLE) && number(r, arg, &u, &d))
		return PCOST_EXIT_USAGE;
	switch (r->id) {
	case PCOST_MOPT_RUNS:
		m->ro.runs = (unsigned)u;
		m->runs_given = true;
		break;
	case PCOST_MOPT_WARMUP:
		m->ro.warmup = (unsigned)u;
		break;
	case PCOST_MOPT_MIN_RUNS:
		m->ro.min_runs = (unsigned)u;
		break;
	case PCOST_MOPT_MAX_RUNS:
		m->ro.max_runs = (unsigned)u;
		break;
	case PCOST_MOPT_PRECISION_PP:
		m->ro.precision = d / 100;
		m->precision_given = true;
		if (!m->precision_rel_given)
			m->ro.precision_rel = 0;
		break;
	case PCOST_MOPT_PRECISION_REL:
		m->ro.precision_rel = d / 100;
		m->precision_rel_given = true;
		if (!m->precision_given)
			m->ro.precision = 0;
		break;
	case PCOST_MOPT_PRECISION_NS:
		m->precision_ns = d;
		break;
	case PCOST_MOPT_MAX_TIME:
		m->ro.max_time_s = d;
		break;
	case PCOST_MOPT_TIMEOUT:
		m->ro.timeout_s = d;
		break;
	case PCOST_MOPT_READY_TIMEOUT:
		m->ro.ready_timeout_s = d;
		break;
	case PCOST_MOPT_SEED:
		m->ro.seed = u;
		m->seed_given = true;
		break;
	case PCOST_MOPT_WASHOUT:
		m->ro.washout = (unsigned)u;
		break;
	case PCOST_MOPT_CPU:
		return cpu_opt(m, arg);
	case PCOST_MOPT_THREADS:
		return threads_opt(m, r, arg);
	case PCOST_MOPT_FORMAT:
		return pcost_format_opt(arg, PCOST_FMT_ROWS, &m->fmt) ? PCOST_EXIT_USAGE : 0;
	case PCOST_MOPT_DB:
		if (pcost_db_opt_check(arg))
			return PCOST_EXIT_USAGE;
		m->db = arg;
		break;
	case PCOST_MOPT_NO_STORE:
		m->no_store = true;
		break;
	case PCOST_MOPT_END:
		return PCOST_MOPT_NOT_MINE;
	}
	return 0;
}

int pcost_measure_opt_rest(struct pcost_measure_opts *m, int c, const char *arg, const char *cmd,
			   char **argv)
{
	int rc;

	if (c == ':')
		return usage_error("option '%s' needs a value; see 'probecost %s --help'",
				   argv[optind - 1], cmd);
	rc = pcost_measure_opt(m, c, arg);
	if (rc != PCOST_MOPT_NOT_MINE)
		return rc;
	return usage_error("unknown option '%s'; see 'probecost %s --help'", argv[optind - 1], cmd);
}

int pcost_measure_parse(int argc, char **argv, const struct option *own, const char *shortopts,
			const enum pcost_mopt *ids, size_t n, int (*on_opt)(int c, void *ctx),
			void *ctx)
{
	struct option *longopts = pcost_measure_longopts(own, ids, n);
	char *so = xasprintf("+:%s", shortopts);
	int c, rc = 0;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, so, longopts, NULL)) != -1)
		if ((rc = on_opt(c, ctx)))
			break;
	free(longopts);
	free(so);
	return rc;
}

int pcost_measure_opts_check(const struct pcost_measure_opts *m)
{
	for (size_t i = 0; i < m->nthreads; i++)
		if (pcost_threads_check(m->threads[i], m->ro.cpu_mask))
			return PCOST_EXIT_USAGE;
	return 0;
}

int pcost_changed_exit(const struct pcost_session *s)
{
	struct pcost_config_stats *st = NULL;
	char mons[160];
	size_t n;

	if (pcost_analyze(s, &st) < 0)
		return 0;
	n = pcost_changed_rows(s, st, mons, sizeof(mons));
	free(st);
	if (!n)
		return 0;
	error("the program changed under %s: %zu row%s ended changed-program (it failed where its "
	      "%s runs did not)",
	      mons, n, n == 1 ? "" : "s", s->kind == PCOST_SESSION_PROBES ? "dormant" : "plain");
	return PCOST_EXIT_FAIL;
}
