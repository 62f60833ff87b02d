// SPDX-License-Identifier: MIT
/* cmd/cmd-measure-opts: the rows of the measuring commands' shared options, and their old parser. */
#include "cmd/cmd-measure-opts.h"

#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd-options.h"
#include "core/util.h"
#include "run/limits.h"
#include "stats/analyze.h"

void pcost_measure_rows(struct pcost_measure_opts *m, struct pcost_option *out)
{
	const struct pcost_option rows[PCOST_MOPT_NROWS] = {
		OPT_MEASURE_RUNS(m, NULL),	    OPT_MEASURE_WARMUP(m, NULL),
		OPT_MEASURE_MIN_RUNS(m, NULL),	    OPT_MEASURE_MAX_RUNS(m, NULL),
		OPT_MEASURE_PRECISION_PP(m, NULL),  OPT_MEASURE_PRECISION_NS(m, NULL),
		OPT_MEASURE_PRECISION_REL(m, NULL), OPT_MEASURE_MAX_TIME(m, NULL),
		OPT_MEASURE_TIMEOUT(m, NULL),	    OPT_MEASURE_READY_TIMEOUT(m, NULL),
		OPT_MEASURE_SEED(m, NULL),	    OPT_MEASURE_WASHOUT(m, NULL),
		OPT_MEASURE_CPU(m, NULL),	    OPT_MEASURE_THREADS(m, NULL),
		OPT_MEASURE_FORMAT(m, NULL),	    OPT_MEASURE_DB(m),
		OPT_MEASURE_NO_STORE(m, NULL),
	};

	memcpy(out, rows, sizeof(rows));
}

void pcost_measure_opts_init(struct pcost_measure_opts *m)
{
	memset(m, 0, sizeof(*m));
	pcost_runner_opts_default(&m->ro);
	m->fmt = PCOST_FMT_TEXT;
}

int pcost_measure_precision(const struct pcost_option *opt, const char *arg)
{
	struct pcost_measure_opts *m = opt->value;
	double d;

	if (pcost_opt_number(opt, arg, NULL, &d))
		return PCOST_EXIT_USAGE;
	/* Either one given alone is the whole ask: the other's default no longer counts. */
	if (opt->defval) {
		m->ro.precision_rel = d / 100;
		m->precision_rel_given = true;
		if (!m->precision_given)
			m->ro.precision = 0;
	} else {
		m->ro.precision = d / 100;
		m->precision_given = true;
		if (!m->precision_rel_given)
			m->ro.precision_rel = 0;
	}
	return 0;
}

int pcost_measure_threads(const struct pcost_option *opt, const char *arg)
{
	struct pcost_measure_opts *m = opt->value;
	char *copy = xstrdup(arg), *save = NULL;
	int rc = 0;

	m->nthreads = 0;
	if (!pcost_list_well_formed(arg))
		rc = -1;
	for (char *tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		uint64_t u;

		if (m->nthreads >= ARRAY_SIZE(m->threads) ||
		    pcost_parse_u64(tok, (uint64_t)opt->lo, (uint64_t)opt->hi, &u) < 0)
			rc = -1;
		else
			m->threads[m->nthreads++] = (unsigned)u;
	}
	free(copy);
	if (rc)
		return usage_error("--threads '%s': expected up to %zu thread counts in %g..%g, "
				   "comma separated (e.g. 1,2,4)",
				   arg, ARRAY_SIZE(m->threads), opt->lo, opt->hi);
	return 0;
}

int pcost_measure_cpu(const struct pcost_option *opt, const char *arg)
{
	struct pcost_measure_opts *m = opt->value;
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
	struct pcost_option rows[PCOST_MOPT_NROWS];

	if (c < PCOST_MOPT_RUNS || c >= PCOST_MOPT_END)
		return PCOST_MOPT_NOT_MINE;
	pcost_measure_rows(m, rows);
	return pcost_opt_apply(&rows[c - PCOST_MOPT_RUNS], arg);
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

/*
 * The old interface of run, predict and calibrate, until they use tables: a
 * second call of the C library's parser (parse-options.c has the other), here
 * so that parse-options.c needs nothing of this file.
 */
struct option *pcost_measure_longopts(const struct option *own, const enum pcost_mopt *ids,
				      size_t n)
{
	struct pcost_measure_opts dummy;
	struct pcost_option rows[PCOST_MOPT_NROWS];
	size_t nown = 0, k = 0;
	struct option *o;

	pcost_measure_rows(&dummy, rows);
	while (own && own[nown].name)
		nown++;
	o = xcalloc(nown + n + 1, sizeof(*o));
	for (size_t i = 0; i < nown; i++)
		o[k++] = own[i];
	for (size_t i = 0; i < n; i++) {
		const struct pcost_option *r = &rows[ids[i] - PCOST_MOPT_RUNS];

		if (ids[i] < PCOST_MOPT_RUNS || ids[i] >= PCOST_MOPT_END)
			continue;
		o[k++] = (struct option){ r->long_name, r->argh ? required_argument : no_argument,
					  NULL, (int)ids[i] };
	}
	return o;
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
