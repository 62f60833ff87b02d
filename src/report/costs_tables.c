// SPDX-License-Identifier: MIT
/*
 * report/costs_tables: the cost table(s) of `probecost costs`.  One table: a row an
 * entry, with its interval, where it came from and why it has no figure.
 * Several (a fleet's store): a row a (subject, event), a column a machine
 * and kernel, then the fingerprint fields in which the machines differ.
 */
#include "report/report.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/emit.h"
#include "report/html.h"
#include "stats/compare.h"
#include "store/store.h"

/* "1.23 [1.10, 1.36] ms", or "n/a (unavailable)". */
static void cost_cell(const struct pcost_cost_entry *e, char *buf, size_t len)
{
	if (!e)
		snprintf(buf, len, "-");
	else if (pcost_cost_has_value(e))
		pcost_text_ns_ci(e->ns, e->lo, e->hi, NULL, buf, len);
	else
		snprintf(buf, len, "n/a (%s)", pcost_cost_status_name(e->status));
}

/* "host, Linux KERNEL (table ID)" */
static void column_name(const struct pcost_cost_table *t, char *buf, size_t len)
{
	snprintf(buf, len, "%s, Linux %s (table %lld)", t->host ? t->host : "?",
		 t->kernel ? t->kernel : "?", (long long)t->id);
}

static void when(const struct pcost_cost_table *t, char *buf, size_t len)
{
	time_t c = (time_t)t->created;
	struct tm tm;

	if (!gmtime_r(&c, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M UTC", &tm))
		snprintf(buf, len, "?");
}

/* The entry's placement, as the costs column shows it ("unpinned", "cpu=0"). */
static const char *placement(const struct pcost_cost_entry *e)
{
	return e->placement ? e->placement : "?";
}

static void headline(const struct pcost_cost_table *t, FILE *out, const char *lead)
{
	char at[32], secs[32] = "", *pinned = pcost_cost_placement(t->cpu);
	bool un = false, pin = false;

	/* The placements its entries were measured under, unpinned first. */
	for (size_t i = 0; i < t->n; i++) {
		un |= !strcmp(placement(&t->e[i]), "unpinned");
		pin |= t->cpu && *t->cpu && !strcmp(placement(&t->e[i]), pinned);
	}
	free(pinned);
	when(t, at, sizeof(at));
	if (isfinite(t->seconds))
		snprintf(secs, sizeof(secs), ", %.0f s", t->seconds);
	fprintf(out, "%sprobecost costs: table %lld, %s%s, Linux %s on %s, %s%s%s%s%s\n", lead,
		(long long)t->id, t->level ? t->level : "?", t->complete ? "" : " (interrupted)",
		t->kernel ? t->kernel : "?", t->host ? t->host : "?", un ? "unpinned" : "",
		un && pin ? " and " : "", pin ? "pinned to CPU " : "", pin ? t->cpu : "", secs);
	fprintf(out, "%s%s, 95%% intervals; n/a: not measured (why in the last column)\n", lead,
		at);
}

/* One markdown cell "TEXT | " ('|' escaped, line breaks as spaces). */
static void md_cell(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|')
			fputc('\\', out);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, out);
	}
	fputs(" | ", out);
}

/* ---- one table ----------------------------------------------------------------- */

static void text_one(const struct pcost_cost_table *t, FILE *out)
{
	headline(t, out, "# ");
	fprintf(out, "\n  %-26s %-18s %-9s %-30s %-26s %-30s %s\n", "subject", "event", "placement",
		"cost", "measured on", "method", "note");
	for (size_t i = 0; i < t->n; i++) {
		const struct pcost_cost_entry *e = &t->e[i];
		char c[96];

		cost_cell(e, c, sizeof(c));
		fprintf(out, "  %-26s %-18s %-9s %-30s %-26s %-30s %s\n", e->subject,
			pcost_cost_event_per(e->event), placement(e), c,
			e->workload ? e->workload : "-", e->method ? e->method : "-",
			e->why ? e->why : "");
	}
}

static void md_one(const struct pcost_cost_table *t, FILE *out)
{
	headline(t, out, "# ");
	fputs("\n| subject | event | placement | cost | status | measured on | method | note |\n"
	      "|---|---|---|---|---|---|---|---|\n",
	      out);
	for (size_t i = 0; i < t->n; i++) {
		const struct pcost_cost_entry *e = &t->e[i];
		char c[96];

		cost_cell(e, c, sizeof(c));
		pcost_md_cells(out, e->subject, pcost_cost_event_per(e->event));
		md_cell(out, placement(e));
		fprintf(out, "%s | %s | ", c, pcost_cost_status_name(e->status));
		md_cell(out, e->workload ? e->workload : "-");
		md_cell(out, e->method ? e->method : "-");
		md_cell(out, e->why ? e->why : "");
		fputs("\n", out);
	}
}

/* ---- several tables: the fleet view ---------------------------------------------- */

struct row_key {
	const char *subject;
	enum pcost_cost_event event;
	const char *placement;
};

/* Every (subject, event, placement) in the order first seen; caller frees. */
static struct row_key *row_keys(const struct pcost_cost_table *t, size_t n, size_t *nk)
{
	struct row_key *k = NULL;
	size_t cap = 0;

	*nk = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < t[i].n; j++) {
			const struct pcost_cost_entry *e = &t[i].e[j];
			size_t x = 0;

			while (x < *nk &&
			       !(k[x].event == e->event && !strcmp(k[x].subject, e->subject) &&
				 !strcmp(k[x].placement, placement(e))))
				x++;
			if (x < *nk)
				continue;
			xgrow((void **)&k, &cap, *nk + 1, sizeof(*k));
			k[(*nk)++] = (struct row_key){ e->subject, e->event, placement(e) };
		}
	return k;
}

/* The fingerprint keys in which any table differs from the first. */
static char **diff_keys(const struct pcost_cost_table *t, size_t n, size_t *nk)
{
	char **keys = NULL;
	size_t cap = 0;

	*nk = 0;
	for (size_t i = 1; i < n; i++) {
		struct pcost_env_diff *d;
		size_t nd;

		pcost_env_diff(t[0].env_json, t[i].env_json, &d, &nd);
		for (size_t j = 0; j < nd; j++) {
			size_t x = 0;

			while (x < *nk && strcmp(keys[x], d[j].key))
				x++;
			if (x == *nk) {
				xgrow((void **)&keys, &cap, *nk + 1, sizeof(*keys));
				keys[(*nk)++] = xstrdup(d[j].key);
			}
			free(d[j].key);
			free(d[j].a);
			free(d[j].b);
		}
		free(d);
	}
	return keys;
}

/* The fingerprint field key of table t as text (caller frees), "(absent)" when none. */
static char *env_value(const struct pcost_cost_table *t, const char *key)
{
	cJSON *j = t->env_json ? cJSON_Parse(t->env_json) : NULL;
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(j, "fields"), *v;
	char *s;

	v = cJSON_GetObjectItemCaseSensitive(cJSON_IsObject(f) ? f : j, key);
	s = cJSON_IsString(v) ? xstrdup(v->valuestring) : v ? cJSON_PrintUnformatted(v) : NULL;
	cJSON_Delete(j);
	return s ? s : xstrdup("(absent)");
}

static void fleet(const struct pcost_cost_table *t, size_t n, bool md, FILE *out)
{
	size_t nk, nd;
	struct row_key *k = row_keys(t, n, &nk);
	char **dk = diff_keys(t, n, &nd), name[256];

	fprintf(out,
		"%sprobecost costs: %zu tables (a column each: machine, kernel), 95%% "
		"intervals; n/a: not measured\n\n",
		md ? "# " : "# ", n);
	if (md) {
		fputs("| subject | event | placement |", out);
		for (size_t i = 0; i < n; i++) {
			column_name(&t[i], name, sizeof(name));
			fprintf(out, " %s |", name);
		}
		fputs("\n|---|---|---|", out);
		for (size_t i = 0; i < n; i++)
			fputs("---|", out);
		fputs("\n", out);
	} else {
		for (size_t i = 0; i < n; i++) {
			column_name(&t[i], name, sizeof(name));
			fprintf(out, "  [%zu] %s\n", i + 1, name);
		}
		fprintf(out, "\n  %-26s %-18s %-9s", "subject", "event", "placement");
		for (size_t i = 0; i < n; i++) {
			char col[16];

			snprintf(col, sizeof(col), "[%zu]", i + 1);
			fprintf(out, " %-30s", col);
		}
		fputs("\n", out);
	}
	for (size_t r = 0; r < nk; r++) {
		if (md) {
			pcost_md_cells(out, k[r].subject, pcost_cost_event_per(k[r].event));
			md_cell(out, k[r].placement);
		} else {
			fprintf(out, "  %-26s %-18s %-9s", k[r].subject,
				pcost_cost_event_per(k[r].event), k[r].placement);
		}
		for (size_t i = 0; i < n; i++) {
			char c[96];

			cost_cell(
				pcost_cost_find_at(&t[i], k[r].subject, k[r].event, k[r].placement),
				c, sizeof(c));
			fprintf(out, md ? "%s | " : " %-30s", c);
		}
		fputs("\n", out);
	}
	fprintf(out, "\n%sfingerprint differences (against [1]):%s\n", md ? "**" : "",
		md ? "**" : (nd ? "" : " none"));
	if (md && nd) {
		fputs("\n| field |", out);
		for (size_t i = 0; i < n; i++)
			fprintf(out, " [%zu] |", i + 1);
		fputs("\n|---|", out);
		for (size_t i = 0; i < n; i++)
			fputs("---|", out);
		fputs("\n", out);
	}
	for (size_t d = 0; d < nd; d++) {
		if (md) {
			fputs("| ", out);
			md_cell(out, dk[d]);
		} else
			fprintf(out, "  %s:", dk[d]);
		for (size_t i = 0; i < n; i++) {
			char *v = env_value(&t[i], dk[d]);

			if (md) {
				md_cell(out, v);
			} else {
				fprintf(out, " [%zu] %s%s", i + 1, v, i + 1 < n ? ";" : "");
			}
			free(v);
		}
		fputs("\n", out);
		free(dk[d]);
	}
	free(dk);
	free(k);
}

/* ---- JSON, CSV -------------------------------------------------------------------- */

static void json_all(const struct pcost_cost_table *t, size_t n, FILE *out)
{
	cJSON *root = cJSON_CreateObject(), *tables, *rows, *diffs;
	size_t nd;
	char **dk = diff_keys(t, n, &nd);

	cJSON_AddStringToObject(root, "probecost", PCOST_VERSION);
	cJSON_AddStringToObject(root, "kind", "costs");
	tables = cJSON_AddArrayToObject(root, "tables");
	rows = cJSON_AddArrayToObject(root, "statistics");
	for (size_t i = 0; i < n; i++) {
		cJSON_AddItemToArray(tables, pcost_cost_table_to_json(&t[i]));
		for (size_t j = 0; j < t[i].n; j++) {
			const struct pcost_cost_entry *e = &t[i].e[j];
			cJSON *o = cJSON_CreateObject();

			cJSON_AddNumberToObject(o, "table", (double)t[i].id);
			cJSON_AddStringToObject(o, "host", t[i].host ? t[i].host : "");
			cJSON_AddStringToObject(o, "kernel", t[i].kernel ? t[i].kernel : "");
			cJSON_AddStringToObject(o, "subject", e->subject);
			cJSON_AddStringToObject(o, "kind", e->kind ? e->kind : "");
			cJSON_AddStringToObject(o, "event", pcost_cost_event_name(e->event));
			cJSON_AddStringToObject(o, "placement", placement(e));
			cJSON_AddStringToObject(o, "status", pcost_cost_status_name(e->status));
			pcost_json_ci(o, "cost_ns", e->ns, e->lo, e->hi);
			cJSON_AddItemToObject(o, "workload",
					      e->workload ? cJSON_CreateString(e->workload)
							  : cJSON_CreateNull());
			cJSON_AddItemToObject(
				o, "why", e->why ? cJSON_CreateString(e->why) : cJSON_CreateNull());
			cJSON_AddItemToArray(rows, o);
		}
	}
	/* The fleet's fingerprint differences: each field, its value in each table. */
	diffs = cJSON_AddArrayToObject(root, "env_differences");
	for (size_t d = 0; d < nd; d++) {
		cJSON *o = cJSON_CreateObject(), *vals = cJSON_AddArrayToObject(o, "values");

		cJSON_AddStringToObject(o, "key", dk[d]);
		for (size_t i = 0; i < n; i++) {
			char *v = env_value(&t[i], dk[d]);

			cJSON_AddItemToArray(vals, cJSON_CreateString(v));
			free(v);
		}
		cJSON_AddItemToArray(diffs, o);
		free(dk[d]);
	}
	free(dk);
	pcost_json_print(root, out);
}

static void csv_all(const struct pcost_cost_table *t, size_t n, FILE *out)
{
	fputs("table,host,kernel,subject,kind,event,status,cost_ns,cost_ns_lo,cost_ns_hi,df,"
	      "workload,method,why,placement\n",
	      out);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < t[i].n; j++) {
			const struct pcost_cost_entry *e = &t[i].e[j];
			struct pcost_csv c = { .out = out };

			pcost_csv_num(&c, "%.0f", (double)t[i].id);
			pcost_csv_str(&c, t[i].host ? t[i].host : "");
			pcost_csv_str(&c, t[i].kernel ? t[i].kernel : "");
			pcost_csv_str(&c, e->subject);
			pcost_csv_str(&c, e->kind ? e->kind : "");
			pcost_csv_str(&c, pcost_cost_event_name(e->event));
			pcost_csv_str(&c, pcost_cost_status_name(e->status));
			pcost_csv_ci(&c, "%.2f", e->ns, e->lo, e->hi);
			pcost_csv_num(&c, "%.1f", e->df);
			pcost_csv_str(&c, e->workload ? e->workload : "");
			pcost_csv_str(&c, e->method ? e->method : "");
			pcost_csv_str(&c, e->why ? e->why : "");
			pcost_csv_str(&c, placement(e));
			pcost_csv_end(&c);
		}
}

static void rows_of(const struct pcost_cost_table *t, size_t n, enum pcost_format f, FILE *out)
{
	if (f == PCOST_FMT_JSON)
		json_all(t, n, out);
	else if (f == PCOST_FMT_CSV)
		csv_all(t, n, out);
	else if (n > 1)
		fleet(t, n, f == PCOST_FMT_MARKDOWN, out);
	else if (f == PCOST_FMT_MARKDOWN)
		md_one(t, out);
	else
		text_one(t, out);
}

int pcost_report_costs(const struct pcost_cost_table *t, size_t n, enum pcost_format f, FILE *out)
{
	if (!n)
		return -EINVAL;
	if (f == PCOST_FMT_HTML) {
		char *md = NULL, title[96];
		size_t len = 0;
		FILE *m = open_memstream(&md, &len);
		int rc;

		if (!m)
			return -errno;
		rows_of(t, n, PCOST_FMT_MARKDOWN, m);
		fclose(m);
		if (n == 1)
			snprintf(title, sizeof(title), "probecost cost table %lld",
				 (long long)t->id);
		else
			snprintf(title, sizeof(title), "probecost cost tables of %zu machines", n);
		rc = pcost_html_markdown_page(title, md, out);
		free(md);
		return rc;
	}
	rows_of(t, n, f, out);
	return ferror(out) ? -EIO : 0;
}
