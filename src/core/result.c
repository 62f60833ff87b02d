// SPDX-License-Identifier: MIT
/* result: constructors and destructors of the plain result structs. */
#include "core/result.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

static const char *const kind_names[] = {
	[PCOST_SESSION_RUN] = "run",
	[PCOST_SESSION_PROBES] = "probes",
	[PCOST_SESSION_COUNTERS] = "counters",
};

const char *pcost_session_kind_name(enum pcost_session_kind k)
{
	return (unsigned)k < ARRAY_SIZE(kind_names) ? kind_names[k] : "unknown";
}

int pcost_session_kind_parse(const char *s, enum pcost_session_kind *k)
{
	for (size_t i = 0; i < ARRAY_SIZE(kind_names); i++) {
		if (s && !strcmp(s, kind_names[i])) {
			*k = (enum pcost_session_kind)i;
			return 0;
		}
	}
	return -1;
}

void pcost_session_init(struct pcost_session *s, enum pcost_session_kind kind)
{
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->complete = true;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void pcost_session_release(struct pcost_session *s)
{
	for (size_t i = 0; i < s->nconfigs; i++) {
		struct pcost_config *c = &s->configs[i];

		free(c->workload);
		free(c->workload_args);
		free(c->monitor);
		free(c->variant);
		free(c->unit);
		free(c->placement);
		for (size_t k = 0; k < c->nsamples; k++)
			free(c->samples[k].metrics);
		free(c->samples);
	}
	for (size_t i = 0; i < s->nseries; i++) {
		struct pcost_counter_series *c = &s->series[i];

		free(c->interface);
		free(c->op);
		free(c->events);
		free(c->timer);
		free(c->note);
		free(c->ns);
	}
	for (size_t k = 0; k < s->nmetrics; k++) {
		free(s->metrics[k].name);
		free(s->metrics[k].unit);
	}
	free(s->metrics);
	for (size_t i = 0; s->levels && i < s->nconfigs; i++)
		free(s->levels[i].figure_sd);
	free(s->levels);
	free(s->configs);
	free(s->series);
	free(s->cmdline);
	free(s->version);
	free(s->env_json);
	free(s->options_json);
	pcost_session_init(s, s->kind);
}

struct pcost_config *pcost_session_add_config(struct pcost_session *s, const char *workload,
					      const char *workload_args, const char *monitor,
					      const char *variant, const char *unit)
{
	struct pcost_config *c;

	xgrow((void **)&s->configs, &s->cap_configs, s->nconfigs + 1, sizeof(*c));
	c = &s->configs[s->nconfigs++];
	memset(c, 0, sizeof(*c));
	c->workload = dup_or_null(workload);
	c->workload_args = dup_or_null(workload_args);
	c->monitor = dup_or_null(monitor);
	c->variant = dup_or_null(variant);
	c->unit = dup_or_null(unit);
	c->expected_events = -1;
	return c;
}

size_t pcost_session_add_metric(struct pcost_session *s, const char *name, const char *unit,
				int better)
{
	struct pcost_session_metric *m;

	s->metrics = xrealloc(s->metrics, (s->nmetrics + 1) * sizeof(*s->metrics));
	m = &s->metrics[s->nmetrics];
	m->name = xstrdup(name);
	m->unit = xstrdup(unit ? unit : "");
	m->better = better > 0 ? 1 : better < 0 ? -1 : 0;
	return s->nmetrics++;
}

int pcost_session_set_metric(struct pcost_session *s, size_t ci, size_t seq, size_t k, double v)
{
	struct pcost_run_sample *x;

	if (ci >= s->nconfigs || seq >= s->configs[ci].nsamples || k >= s->nmetrics)
		return -1;
	x = &s->configs[ci].samples[seq];
	if (!x->metrics) {
		x->metrics = xcalloc(s->nmetrics, sizeof(double));
		for (size_t j = 0; j < s->nmetrics; j++)
			x->metrics[j] = NAN;
	}
	x->metrics[k] = v;
	return 0;
}

int pcost_session_metric_find(const struct pcost_session *s, const char *name)
{
	for (size_t k = 0; k < s->nmetrics; k++)
		if (!strcmp(s->metrics[k].name, name))
			return (int)k;
	return -1;
}

struct pcost_run_sample *pcost_config_add_sample(struct pcost_config *c,
						 const struct pcost_run_sample *sample)
{
	xgrow((void **)&c->samples, &c->cap, c->nsamples + 1, sizeof(*sample));
	c->samples[c->nsamples] = *sample;
	return &c->samples[c->nsamples++];
}

struct pcost_counter_series *pcost_session_add_series(struct pcost_session *s,
						      const char *interface, const char *op,
						      const char *events, unsigned nevents,
						      const char *timer, const double *ns, size_t n)
{
	struct pcost_counter_series *c;

	xgrow((void **)&s->series, &s->cap_series, s->nseries + 1, sizeof(*c));
	c = &s->series[s->nseries++];
	memset(c, 0, sizeof(*c));
	c->interface = dup_or_null(interface);
	c->op = dup_or_null(op);
	c->events = dup_or_null(events);
	c->nevents = nevents;
	c->timer = dup_or_null(timer);
	c->n = n;
	c->ns = xmalloc((n ? n : 1) * sizeof(double));
	if (n)
		memcpy(c->ns, ns, n * sizeof(double));
	return c;
}

static bool needs_quotes(const char *s)
{
	if (!*s)
		return true;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=./,:+@%",
			    *s))
			return true;
	return false;
}

/* bash's $'...' form of s at p: printable UTF-8 kept, every other byte \xNN. */
static char *ansi_c_quote(char *p, const char *s)
{
	p = pcost_text_escape_to(stpcpy(p, "$'"), s, "'\\");
	*p++ = '\'';
	*p = '\0';
	return p;
}

char *pcost_join_argv(int argc, char **argv)
{
	size_t len = 1;
	char *out, *p;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) * 4 + 4;
	out = p = xmalloc(len);
	*p = '\0';
	for (int i = 0; i < argc; i++) {
		if (i)
			*p++ = ' ';
		if (!needs_quotes(argv[i])) {
			p = stpcpy(p, argv[i]);
			continue;
		}
		if (!pcost_text_printable(argv[i])) {
			p = ansi_c_quote(p, argv[i]);
			continue;
		}
		*p++ = '\'';
		for (const char *q = argv[i]; *q; q++) {
			if (*q == '\'')
				p = stpcpy(p, "'\\''");
			else
				*p++ = *q;
		}
		*p++ = '\'';
		*p = '\0';
	}
	*p = '\0';
	return out;
}

bool pcost_session_failed(const struct pcost_session *s)
{
	size_t failed = 0;

	for (size_t i = 0; i < s->nconfigs; i++) {
		for (size_t k = 0; k < s->configs[i].nsamples; k++) {
			const struct pcost_run_sample *x = &s->configs[i].samples[k];

			if (!x->failed && !x->warmup)
				return false;
			failed += x->failed;
		}
	}
	return failed > 0;
}

const char *pcost_session_fail_reason(const struct pcost_session *s)
{
	for (size_t i = s->nconfigs; i-- > 0;)
		for (size_t k = s->configs[i].nsamples; k-- > 0;)
			if (s->configs[i].samples[k].failed &&
			    s->configs[i].samples[k].fail_reason[0])
				return s->configs[i].samples[k].fail_reason;
	return NULL;
}

void pcost_sample_fail(struct pcost_run_sample *smp, const char *fmt, ...)
{
	va_list ap;

	smp->failed = true;
	va_start(ap, fmt);
	vsnprintf(smp->fail_reason, sizeof(smp->fail_reason), fmt, ap);
	va_end(ap);
}

static const char *const fault_names[] = {
	[PCOST_FAULT_NONE] = "none",
	[PCOST_FAULT_PROGRAM] = "program",
	[PCOST_FAULT_TOOL] = "tool",
};

const char *pcost_fault_name(enum pcost_fault f)
{
	return (unsigned)f < ARRAY_SIZE(fault_names) ? fault_names[f] : NULL;
}

int pcost_fault_parse(const char *s, enum pcost_fault *f)
{
	for (size_t i = 0; i < ARRAY_SIZE(fault_names); i++) {
		if (s && fault_names[i] && !strcmp(s, fault_names[i])) {
			*f = (enum pcost_fault)i;
			return 0;
		}
	}
	return -1;
}

double pcost_config_scale(const struct pcost_config *c)
{
	return c->nsamples ? c->samples[0].scale : 1;
}
