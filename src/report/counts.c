// SPDX-License-Identifier: MIT
/* report/counts: a counting run's counts as text, JSON or CSV. */
#include "report/counts.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "core/proc.h"
#include "report/emit.h"

static bool exited(const struct pcost_evcount *c)
{
	return c->wait_status >= 0 && WIFEXITED(c->wait_status);
}

static const char *signal_name(const struct pcost_evcount *c)
{
	if (c->wait_status < 0 || !WIFSIGNALED(c->wait_status))
		return NULL;
	return sigabbrev_np(WTERMSIG(c->wait_status)) ?: "?";
}

static void json_str_or_null(cJSON *o, const char *name, const char *s)
{
	cJSON_AddItemToObject(o, name, s && *s ? cJSON_CreateString(s) : cJSON_CreateNull());
}

static void json_by_nr(cJSON *root, const struct pcost_evcount *c)
{
	cJSON *o = cJSON_AddObjectToObject(root, "syscalls_by_nr"), *a;

	json_str_or_null(o, "source", c->by_nr_counted ? c->by_nr_source : NULL);
	json_str_or_null(o, "why", c->by_nr_counted ? NULL : c->by_nr_why);
	pcost_json_count(o, "lost_tasks", (double)c->by_nr_lost_tasks, c->by_nr_counted);
	pcost_json_count(o, "new_task_calls", (double)c->by_nr_new_tasks, c->by_nr_counted);
	if (!c->by_nr_counted) {
		cJSON_AddNullToObject(o, "counts");
		return;
	}
	a = cJSON_AddArrayToObject(o, "counts");
	for (size_t i = 0; i < c->nby_nr; i++) {
		cJSON *s = cJSON_CreateObject();

		pcost_json_count(s, "nr", (double)c->by_nr[i].nr, c->by_nr[i].nr >= 0);
		json_str_or_null(s, "name", c->by_nr[i].name);
		cJSON_AddNumberToObject(s, "count", (double)c->by_nr[i].count);
		cJSON_AddNumberToObject(s, "new_task", (double)c->by_nr[i].new_task);
		cJSON_AddItemToArray(a, s);
	}
}

static void json_probes(cJSON *root, const struct pcost_evcount *c)
{
	cJSON *o = cJSON_AddObjectToObject(root, "probes"), *a;

	json_str_or_null(o, "binary", c->exe);
	json_str_or_null(o, "source", c->probes_counted ? c->probes_source : NULL);
	json_str_or_null(o, "why", c->probes_counted ? NULL : c->probes_why);
	if (!c->nprobes) {
		cJSON_AddNullToObject(o, "hits");
		return;
	}
	a = cJSON_AddArrayToObject(o, "hits");
	for (size_t i = 0; i < c->nprobes; i++) {
		const struct pcost_evc_probe *p = &c->probes[i];
		cJSON *h = cJSON_CreateObject();

		cJSON_AddStringToObject(h, "provider", p->provider);
		cJSON_AddStringToObject(h, "name", p->name);
		cJSON_AddNumberToObject(h, "sites", p->nsites);
		pcost_json_count(h, "hits", (double)p->hits, c->probes_counted && p->hits >= 0);
		cJSON_AddItemToArray(a, h);
	}
}

static void json_print(const struct pcost_evcount *c, FILE *out)
{
	cJSON *root = cJSON_CreateObject(), *counts, *sources, *nc;
	bool ran = c->wait_status >= 0;

	cJSON_AddStringToObject(root, "probecost", PCOST_VERSION);
	cJSON_AddStringToObject(root, "kind", "count");
	json_str_or_null(root, "command", c->command);
	json_str_or_null(root, "exe", c->exe);
	pcost_json_count(root, "exit_status", exited(c) ? WEXITSTATUS(c->wait_status) : 0,
			 exited(c));
	json_str_or_null(root, "signal", signal_name(c));
	json_str_or_null(root, "failed", c->fail);
	cJSON_AddBoolToObject(root, "timed_out", c->timed_out);
	cJSON_AddBoolToObject(root, "interrupted", c->interrupted);
	pcost_json_count(root, "wall_ns", (double)c->wall_ns, ran);
	pcost_json_count(root, "user_ns", (double)c->user_ns, ran);
	pcost_json_count(root, "sys_ns", (double)c->sys_ns, ran);
	pcost_json_count(root, "left_running", c->left_running, ran);
	counts = cJSON_AddObjectToObject(root, "counts");
	sources = cJSON_AddObjectToObject(root, "sources");
	nc = cJSON_AddObjectToObject(root, "not_counted");
	for (int k = 0; k < PCOST_EVC_N; k++) {
		const char *name = pcost_evc_kind_name(k);

		pcost_json_count(counts, name, (double)c->v[k], c->v[k] >= 0);
		json_str_or_null(sources, name, c->v[k] >= 0 ? c->source[k] : NULL);
		if (c->v[k] < 0)
			cJSON_AddStringToObject(nc, name, c->why[k][0] ? c->why[k] : "not counted");
	}
	json_by_nr(root, c);
	json_probes(root, c);
	pcost_json_print(root, out);
}

static void csv_row(struct pcost_csv *csv, const char *event, int64_t v, const char *unit,
		    const char *source)
{
	pcost_csv_str(csv, event);
	pcost_csv_count(csv, (double)v, v >= 0);
	pcost_csv_str(csv, unit);
	pcost_csv_str(csv, v >= 0 && source ? source : "");
	pcost_csv_end(csv);
}

static void csv_print(const struct pcost_evcount *c, FILE *out)
{
	struct pcost_csv csv = { .out = out };
	char name[160];

	fputs("event,count,unit,counter\n", out);
	for (int k = 0; k < PCOST_EVC_N; k++)
		csv_row(&csv, pcost_evc_kind_name(k), c->v[k], pcost_evc_kind_unit(k),
			c->source[k]);
	for (size_t i = 0; c->by_nr_counted && i < c->nby_nr; i++) {
		const struct pcost_evc_syscall *s = &c->by_nr[i];

		if (s->name[0])
			snprintf(name, sizeof(name), "syscall:%s", s->name);
		else if (s->nr >= 0)
			snprintf(name, sizeof(name), "syscall:%ld", s->nr);
		else
			snprintf(name, sizeof(name), "syscall:other");
		csv_row(&csv, name, (int64_t)s->count, "syscall", c->by_nr_source);
	}
	for (size_t i = 0; i < c->nprobes; i++) {
		snprintf(name, sizeof(name), "probe:%s:%s", c->probes[i].provider,
			 c->probes[i].name);
		csv_row(&csv, name, c->probes_counted ? c->probes[i].hits : -1, "hit",
			c->probes_source);
	}
}

static void text_print(const struct pcost_evcount *c, FILE *out)
{
	const char *sig = signal_name(c);
	char how[64];

	fprintf(out, "# probecost run --count: %s\n", c->command ? c->command : "");
	fprintf(out, "# one untimed counting run: ");
	pcost_wait_status_text(exited(c) || sig ? c->wait_status : -1, NULL, how, sizeof(how));
	fputs(how, out);
	if (c->wait_status >= 0)
		fprintf(out, ", %.3f s wall, %.3f s user, %.3f s sys", (double)c->wall_ns / 1e9,
			(double)c->user_ns / 1e9, (double)c->sys_ns / 1e9);
	if (c->left_running)
		fprintf(out, "; %u process%s left running (killed)", c->left_running,
			c->left_running == 1 ? "" : "es");
	fprintf(out, "\n\n  %-22s %14s   %s\n", "event", "count", "counter");
	for (int k = 0; k < PCOST_EVC_N; k++) {
		if (c->v[k] >= 0)
			fprintf(out, "  %-22s %14lld   %s\n", pcost_evc_kind_name(k),
				(long long)c->v[k], c->source[k] ? c->source[k] : "");
		else
			fprintf(out, "  %-22s %14s   %s\n", pcost_evc_kind_name(k), "n/a",
				c->why[k]);
	}
	if (c->by_nr_counted) {
		fprintf(out, "\n  syscalls by number (%s)%s\n", c->by_nr_source,
			c->nby_nr ? "" : ": none");
		if (c->nby_nr)
			fprintf(out, "  %6s %-22s %14s %14s\n", "nr", "name", "count",
				"in new tasks");
		for (size_t i = 0; i < c->nby_nr; i++) {
			const struct pcost_evc_syscall *s = &c->by_nr[i];
			char nr[24];

			snprintf(nr, sizeof(nr), s->nr >= 0 ? "%ld" : "other", s->nr);
			fprintf(out, "  %6s %-22s %14llu %14llu\n", nr, s->name,
				(unsigned long long)s->count, (unsigned long long)s->new_task);
		}
		if (c->by_nr_lost_tasks)
			fprintf(out,
				"  (%llu tasks were not followed: their syscalls are missing)\n",
				(unsigned long long)c->by_nr_lost_tasks);
	} else {
		fprintf(out, "\n  syscalls by number: n/a (%s)\n", c->by_nr_why);
	}
	if (c->probes_counted) {
		size_t idle = 0;

		fprintf(out, "\n  SDT probes of %s (%s)\n", c->exe, c->probes_source);
		for (size_t i = 0; i < c->nprobes; i++) {
			const struct pcost_evc_probe *p = &c->probes[i];
			char name[140];

			if (!p->hits) {
				idle++;
				continue;
			}
			snprintf(name, sizeof(name), "%s:%s", p->provider, p->name);
			fprintf(out, "  %-38s %14lld\n", name, (long long)p->hits);
		}
		if (idle)
			fprintf(out, "  (%zu other probe%s: no hits)\n", idle,
				idle == 1 ? "" : "s");
	} else {
		fprintf(out, "\n  SDT probe hits: n/a (%s)\n", c->probes_why);
	}
}

int pcost_report_evcount(const struct pcost_evcount *c, enum pcost_format f, FILE *out)
{
	switch (f) {
	case PCOST_FMT_TEXT:
		text_print(c, out);
		return 0;
	case PCOST_FMT_JSON:
		json_print(c, out);
		return 0;
	case PCOST_FMT_CSV:
		csv_print(c, out);
		return 0;
	default:
		return -EINVAL;
	}
}
