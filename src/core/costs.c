// SPDX-License-Identifier: MIT
/* core/costs: the cost table struct, its names, and the entries' bookkeeping. */
#include "core/costs.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/util.h"

static const char *const status_names[PCOST_COST_NSTATUS] = {
	[PCOST_COST_MEASURED] = "measured",
	[PCOST_COST_DERIVED] = "derived",
	[PCOST_COST_UNAVAILABLE] = "unavailable",
	[PCOST_COST_FAILED] = "failed",
};

static const struct {
	const char *name, *per;
} events[PCOST_CE_N] = {
	[PCOST_CE_RUN] = { "run", "per run" },
	[PCOST_CE_SYSCALL] = { "syscall", "per syscall" },
	[PCOST_CE_SYSCALL_DECODED] = { "syscall-decoded", "per decoded syscall" },
	[PCOST_CE_SYSCALL_DIR] = { "getdents", "per getdents64" },
	[PCOST_CE_SYSCALL_UNTRACED] = { "syscall-untraced", "per untraced syscall" },
	[PCOST_CE_STOP_AFTER_WORK] = { "stop-after-work", "per stop after work (more)" },
	[PCOST_CE_CSWITCH] = { "cswitch", "per context switch" },
	[PCOST_CE_FAULT] = { "fault", "per page fault" },
	[PCOST_CE_TASK] = { "task", "per task created" },
	[PCOST_CE_EXEC] = { "exec", "per exec" },
	[PCOST_CE_SAMPLE] = { "sample", "per sample" },
	[PCOST_CE_HIT] = { "hit", "per probe hit" },
	[PCOST_CE_READ] = { "read", "per counter read" },
	[PCOST_CE_SIDEBAND] = { "sideband", "side-band wait a run" },
	[PCOST_CE_STOP_SHARED] = { "stop-shared",
				   "per decoded syscall beside another tracee (more)" },
	[PCOST_CE_SYSCALL_SHARED] = { "syscall-shared", "per syscall beside another task (more)" },
};

const char *pcost_cost_status_name(enum pcost_cost_status s)
{
	return s < PCOST_COST_NSTATUS ? status_names[s] : "?";
}

int pcost_cost_status_parse(const char *s, enum pcost_cost_status *out)
{
	for (int i = 0; i < PCOST_COST_NSTATUS; i++)
		if (s && !strcmp(s, status_names[i])) {
			*out = (enum pcost_cost_status)i;
			return 0;
		}
	return -EINVAL;
}

const char *pcost_cost_event_name(enum pcost_cost_event e)
{
	return e < PCOST_CE_N ? events[e].name : "?";
}

const char *pcost_cost_event_per(enum pcost_cost_event e)
{
	return e < PCOST_CE_N ? events[e].per : "?";
}

int pcost_cost_event_parse(const char *s, enum pcost_cost_event *out)
{
	for (int i = 0; i < PCOST_CE_N; i++)
		if (s && !strcmp(s, events[i].name)) {
			*out = (enum pcost_cost_event)i;
			return 0;
		}
	return -EINVAL;
}

void pcost_cost_table_init(struct pcost_cost_table *t)
{
	memset(t, 0, sizeof(*t));
	t->seconds = NAN;
}

void pcost_cost_table_release(struct pcost_cost_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		struct pcost_cost_entry *e = &t->e[i];

		free(e->subject);
		free(e->kind);
		free(e->workload);
		free(e->method);
		free(e->why);
		free(e->placement);
	}
	free(t->e);
	free(t->level);
	free(t->version);
	free(t->host);
	free(t->kernel);
	free(t->cpu);
	free(t->env_json);
	pcost_cost_table_init(t);
}

void pcost_cost_tables_free(struct pcost_cost_table *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		pcost_cost_table_release(&t[i]);
	free(t);
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

struct pcost_cost_entry *pcost_cost_add(struct pcost_cost_table *t, const char *subject,
					const char *kind, enum pcost_cost_event event,
					const char *workload, const char *method)
{
	struct pcost_cost_entry *e;

	xgrow((void **)&t->e, &t->cap, t->n + 1, sizeof(*t->e));
	e = &t->e[t->n++];
	memset(e, 0, sizeof(*e));
	e->subject = dup_or_null(subject);
	e->kind = dup_or_null(kind);
	e->event = event;
	e->status = PCOST_COST_FAILED;
	e->ns = e->lo = e->hi = e->df = NAN;
	e->workload = dup_or_null(workload);
	e->method = dup_or_null(method);
	return e;
}

void pcost_cost_why(struct pcost_cost_entry *e, const char *fmt, ...)
{
	va_list ap;
	char buf[512];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	free(e->why);
	e->why = xstrdup(buf);
}

const struct pcost_cost_entry *pcost_cost_find_at(const struct pcost_cost_table *t,
						  const char *subject, enum pcost_cost_event event,
						  const char *placement)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->e[i].event == event && t->e[i].subject &&
		    !strcmp(t->e[i].subject, subject) &&
		    (!placement || (t->e[i].placement && !strcmp(t->e[i].placement, placement))))
			return &t->e[i];
	return NULL;
}

const struct pcost_cost_entry *pcost_cost_find(const struct pcost_cost_table *t,
					       const char *subject, enum pcost_cost_event event)
{
	return pcost_cost_find_at(t, subject, event, NULL);
}

bool pcost_cost_has_value(const struct pcost_cost_entry *e)
{
	return e && (e->status == PCOST_COST_MEASURED || e->status == PCOST_COST_DERIVED) &&
	       isfinite(e->ns);
}

char *pcost_cost_placement(const char *cpu_text)
{
	return cpu_text && cpu_text[0] ? xasprintf("cpu=%s", cpu_text) : xstrdup("unpinned");
}

void pcost_cost_set_placement(struct pcost_cost_table *t, size_t from, const char *cpu_text)
{
	for (size_t i = from; i < t->n; i++)
		if (!t->e[i].placement)
			t->e[i].placement = pcost_cost_placement(cpu_text);
}

void pcost_cost_table_take(struct pcost_cost_table *t, struct pcost_cost_table *from,
			   const char *cpu_text)
{
	size_t at = t->n;

	xgrow((void **)&t->e, &t->cap, t->n + from->n, sizeof(*t->e));
	memcpy(t->e + t->n, from->e, from->n * sizeof(*from->e));
	t->n += from->n;
	from->n = 0;
	pcost_cost_table_release(from);
	pcost_cost_set_placement(t, at, cpu_text);
}

bool pcost_cost_has_placement(const struct pcost_cost_table *t, const char *placement)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->e[i].placement && !strcmp(t->e[i].placement, placement))
			return true;
	return false;
}

void pcost_cost_table_select(const struct pcost_cost_table *t, const char *placement,
			     struct pcost_cost_table *out)
{
	pcost_cost_table_init(out);
	out->id = t->id;
	out->created = t->created;
	out->level = dup_or_null(t->level);
	out->version = dup_or_null(t->version);
	out->host = dup_or_null(t->host);
	out->kernel = dup_or_null(t->kernel);
	out->cpu = dup_or_null(t->cpu);
	out->env_json = dup_or_null(t->env_json);
	out->seconds = t->seconds;
	out->complete = t->complete;
	pcost_cost_copy_entries(out, t, placement, NULL);
}

void pcost_cost_copy_entries(struct pcost_cost_table *out, const struct pcost_cost_table *t,
			     const char *placement, const char *subject)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct pcost_cost_entry *x = &t->e[i];
		struct pcost_cost_entry *e;

		if (!x->placement || strcmp(x->placement, placement) ||
		    (subject && strcmp(x->subject, subject)))
			continue;
		e = pcost_cost_add(out, x->subject, x->kind, x->event, x->workload, x->method);
		e->status = x->status;
		e->ns = x->ns;
		e->lo = x->lo;
		e->hi = x->hi;
		e->df = x->df;
		e->why = dup_or_null(x->why);
		e->session_id = x->session_id;
		e->placement = xstrdup(x->placement);
	}
}
