// SPDX-License-Identifier: MIT
/* stats/outcome: how each configuration's runs ended (see outcome.h). */
#include "stats/outcome.h"

#include <stdio.h>
#include <string.h>

#include "core/util.h"

static const char *const names[] = {
	[PCOST_OUTCOME_OK] = "ok",
	[PCOST_OUTCOME_UNKNOWN] = "unknown",
	[PCOST_OUTCOME_PROGRAM_FAILED] = "program-failed",
	[PCOST_OUTCOME_TOOL_FAILED] = "tool-failed",
	[PCOST_OUTCOME_CHANGED_PROGRAM] = "changed-program",
};

const char *pcost_outcome_name(enum pcost_outcome o)
{
	return (unsigned)o < ARRAY_SIZE(names) ? names[o] : "unknown";
}

enum pcost_fault pcost_sample_fault(const struct pcost_run_sample *x, bool baseline)
{
	static const char *const tool[] = { "monitor ", "hung", "timeout" };

	if (x->fault != PCOST_FAULT_UNKNOWN)
		return x->fault;
	if (!x->failed)
		return x->check < 0 ? PCOST_FAULT_PROGRAM : PCOST_FAULT_NONE;
	if (baseline)
		return PCOST_FAULT_PROGRAM;
	for (size_t i = 0; i < ARRAY_SIZE(tool); i++)
		if (!strncmp(x->fail_reason, tool[i], strlen(tool[i])))
			return PCOST_FAULT_TOOL;
	return PCOST_FAULT_UNKNOWN;
}

/* What the runs of one configuration came to. */
struct tally {
	size_t runs, ok, program, noted;
	enum pcost_outcome worst;
	size_t nworst;
	const char *why;  /* the first reason of a run at the worst outcome */
	const char *note; /* the monitor's last note on a run, NULL */
};

static void tally(const struct pcost_config *c, bool baseline, bool blame, struct tally *t)
{
	memset(t, 0, sizeof(*t));
	for (size_t k = 0; k < c->nsamples; k++) {
		const struct pcost_run_sample *x = &c->samples[k];
		enum pcost_fault f = pcost_sample_fault(x, baseline);
		enum pcost_outcome o;

		t->runs++;
		if (x->note[0]) {
			t->noted++;
			t->note = x->note;
		}
		switch (f) {
		case PCOST_FAULT_NONE:
			o = PCOST_OUTCOME_OK;
			t->ok++;
			break;
		case PCOST_FAULT_TOOL:
			o = PCOST_OUTCOME_TOOL_FAILED;
			break;
		case PCOST_FAULT_PROGRAM:
			t->program++;
			o = blame ? PCOST_OUTCOME_CHANGED_PROGRAM : PCOST_OUTCOME_PROGRAM_FAILED;
			break;
		default:
			o = PCOST_OUTCOME_UNKNOWN;
			break;
		}
		if (!t->nworst || o > t->worst) {
			t->worst = o;
			t->nworst = 0;
			t->why = NULL;
		}
		if (o == t->worst) {
			t->nworst++;
			if (!t->why && x->fail_reason[0])
				t->why = x->fail_reason;
		}
	}
}

enum pcost_outcome pcost_outcome_of(const struct pcost_session *s, size_t i, bool baseline, int bi,
				    char *w, size_t len, bool *noted)
{
	const struct pcost_config *c = &s->configs[i];
	struct tally t, b = { 0 };
	size_t n;

	if (bi >= 0)
		tally(&s->configs[bi], true, false, &b);
	/* The tool is to blame only when the program did not fail without it. */
	tally(c, baseline, !baseline && bi >= 0 && !b.program, &t);
	*noted = t.note != NULL;
	if (!t.runs) {
		snprintf(w, len, "%s",
			 s->complete ? "no run" : "not run: the session was interrupted first");
		return PCOST_OUTCOME_UNKNOWN;
	}
	if (t.worst == PCOST_OUTCOME_OK) {
		n = (size_t)snprintf(w, len, "%zu run%s ok", t.runs, t.runs == 1 ? "" : "s");
		if (t.note && n < len)
			snprintf(w + n, len - n, "; %s said: %s (in %zu)", c->monitor, t.note,
				 t.noted);
		return t.worst;
	}
	n = (size_t)snprintf(w, len, "%zu of %zu runs: %s", t.nworst, t.runs,
			     t.why ? t.why : "no reason recorded");
	if (n >= len)
		return t.worst;
	if (t.worst == PCOST_OUTCOME_CHANGED_PROGRAM)
		snprintf(w + n, len - n, "; its %s runs: %zu of %zu ok", s->configs[bi].monitor,
			 b.ok, b.runs);
	else if (t.worst == PCOST_OUTCOME_UNKNOWN)
		snprintf(w + n, len - n,
			 " (stored before probecost told the program's failures "
			 "from the tool's)");
	return t.worst;
}
