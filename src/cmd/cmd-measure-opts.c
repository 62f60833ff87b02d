// SPDX-License-Identifier: MIT
/* cmd/cmd-measure-opts: the rows of the measuring commands' shared options and their checks. */
#include "cmd/cmd-measure-opts.h"

#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd-options.h"
#include "core/util.h"
#include "run/limits.h"
#include "stats/analyze.h"

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

int pcost_measure_output_filter(const struct pcost_option *opt, const char *arg)
{
	struct pcost_measure_opts *m = opt->value;
	char why[160];
	regex_t re;
	int rc = regcomp(&re, arg, REG_EXTENDED | REG_NOSUB);

	if (rc) {
		regerror(rc, &re, why, sizeof(why));
		return usage_error("--output-filter '%s': %s; give an extended regex of the lines "
				   "to drop (e.g. '^took [0-9.]+ ms$')",
				   arg, why);
	}
	regfree(&re);
	m->ro.output_filter = arg;
	m->ro.check_output = true;
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
