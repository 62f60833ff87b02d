// SPDX-License-Identifier: MIT
/* emit: the JSON envelope and CSV dialect every renderer shares (see emit.h). */
#include "report/emit.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/analyze.h"
#include "store/store.h"

static cJSON *object_or_null(const char *text)
{
	cJSON *v = text ? cJSON_Parse(text) : NULL;

	if (cJSON_IsObject(v))
		return v;
	cJSON_Delete(v);
	return cJSON_CreateNull();
}

cJSON *pcost_json_envelope(const struct pcost_session *s)
{
	cJSON *root = cJSON_CreateObject();

	cJSON_AddStringToObject(root, "probecost", PCOST_VERSION);
	cJSON_AddStringToObject(root, "kind", pcost_session_kind_name(s->kind));
	cJSON_AddBoolToObject(root, "complete", s->complete);
	cJSON_AddItemToObject(root, "env", object_or_null(s->env_json));
	cJSON_AddItemToObject(root, "options", object_or_null(s->options_json));
	cJSON_AddItemToObject(root, "session", pcost_session_to_json(s));
	return root;
}

cJSON *pcost_json_statistics(cJSON *root)
{
	return cJSON_AddArrayToObject(root, "statistics");
}

void pcost_json_warnings(cJSON *root, const char (*msg)[PCOST_WARNING_LEN], size_t n)
{
	cJSON *w = cJSON_AddArrayToObject(root, "warnings");

	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(w, cJSON_CreateString(msg[i]));
}

void pcost_json_print(cJSON *root, FILE *out)
{
	char *txt = cJSON_Print(root);

	fprintf(out, "%s\n", txt);
	free(txt);
	cJSON_Delete(root);
}

cJSON *pcost_json_num(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

void pcost_json_ci(cJSON *o, const char *name, double v, double lo, double hi)
{
	char k[64];

	cJSON_AddItemToObject(o, name, pcost_json_num(v));
	snprintf(k, sizeof(k), "%s_lo", name);
	cJSON_AddItemToObject(o, k, pcost_json_num(lo));
	snprintf(k, sizeof(k), "%s_hi", name);
	cJSON_AddItemToObject(o, k, pcost_json_num(hi));
}

void pcost_json_count(cJSON *o, const char *name, double v, bool known)
{
	cJSON_AddItemToObject(o, name, known ? cJSON_CreateNumber(v) : cJSON_CreateNull());
}

void pcost_json_carry_over(cJSON *o, const struct pcost_config_stats *x)
{
	pcost_json_ci(o, "carry_over", x->carry_over, x->carry_over_lo, x->carry_over_hi);
	cJSON_AddItemToObject(o, "carry_over_p", pcost_json_num(x->carry_over_p));
	pcost_json_count(o, "carry_over_runs", (double)x->carry_after, x->baseline >= 0);
	pcost_json_count(o, "carry_clean_runs", (double)x->carry_clean, x->baseline >= 0);
}

void pcost_csv_carry_over(struct pcost_csv *c, const struct pcost_config_stats *x)
{
	pcost_csv_ci(c, "%.6f", x->carry_over, x->carry_over_lo, x->carry_over_hi);
	pcost_csv_num(c, "%.6g", x->carry_over_p);
}

static void sep(struct pcost_csv *c)
{
	if (c->started)
		fputc(',', c->out);
	c->started = true;
}

void pcost_csv_str(struct pcost_csv *c, const char *s)
{
	sep(c);
	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, c->out);
		return;
	}
	fputc('"', c->out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', c->out);
		fputc(*s, c->out);
	}
	fputc('"', c->out);
}

void pcost_csv_num(struct pcost_csv *c, const char *fmt, double v)
{
	sep(c);
	if (isfinite(v))
		fprintf(c->out, fmt, v);
}

void pcost_csv_count(struct pcost_csv *c, double v, bool known)
{
	sep(c);
	if (known && isfinite(v))
		fprintf(c->out, "%.0f", v);
}

void pcost_csv_bool(struct pcost_csv *c, bool v)
{
	sep(c);
	fputs(v ? "true" : "false", c->out);
}

void pcost_csv_ci(struct pcost_csv *c, const char *fmt, double v, double lo, double hi)
{
	pcost_csv_num(c, fmt, v);
	pcost_csv_num(c, fmt, lo);
	pcost_csv_num(c, fmt, hi);
}

void pcost_csv_end(struct pcost_csv *c)
{
	fputc('\n', c->out);
	c->started = false;
}

/* v [lo, hi] in one unit chosen from the largest of the three: "8.10 [7.20, 9.00] ms". */
void pcost_text_ns_ci(double v, double lo, double hi, const char *per, char *buf, size_t len)
{
	pcost_text_ns_ci_at(v, lo, hi, 0, per, buf, len);
}

void pcost_text_ns_ci_at(double v, double lo, double hi, double at, const char *per, char *buf,
			 size_t len)
{
	double m = fmax(fmax(fabs(v), isfinite(at) ? fabs(at) : 0),
			fmax(isfinite(lo) ? fabs(lo) : 0, isfinite(hi) ? fabs(hi) : 0));
	double div = m >= 1e9 ? 1e9 : m >= 1e6 ? 1e6 : m >= 1e4 ? 1e3 : 1;
	const char *u = m >= 1e9 ? "s" : m >= 1e6 ? "ms" : m >= 1e4 ? "us" : "ns";
	double k = m / div;
	int d = k < 10 ? 2 : k < 100 ? 1 : 0;

	if (!isfinite(v))
		snprintf(buf, len, "n/a");
	else if (!isfinite(lo) || !isfinite(hi))
		snprintf(buf, len, "%.*f %s%s%s", d, v / div, u, per ? "/" : "", per ? per : "");
	else
		snprintf(buf, len, "%.*f [%.*f, %.*f] %s%s%s", d, v / div, d, lo / div, d, hi / div,
			 u, per ? "/" : "", per ? per : "");
}

void pcost_text_pct_ci(double v, double lo, double hi, bool sig, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "n/a");
	else if (!isfinite(lo) || !isfinite(hi))
		snprintf(buf, len, "%+.1f%%", 100 * v);
	else
		snprintf(buf, len, "%+.1f%% [%+.1f, %+.1f]%s", 100 * v, 100 * lo, 100 * hi,
			 sig ? "" : "?");
}

static void md_text(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|')
			fputc('\\', out);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, out);
	}
}

void pcost_md_cells(FILE *out, const char *a, const char *b)
{
	fputs("| ", out);
	md_text(out, a);
	fputs(" | ", out);
	md_text(out, b);
	fputs(" | ", out);
}

void pcost_text_changed(const struct pcost_session *s, const struct pcost_config_stats *st,
			const char *under, const char *base, FILE *out)
{
	char mons[160];
	size_t n = pcost_changed_rows(s, st, mons, sizeof(mons));

	if (n)
		fprintf(out,
			"# CHANGED PROGRAM in %zu of %zu rows (%s): the workload failed %s and "
			"not in its %s runs: see each row's outcome\n",
			n, s->nconfigs, mons, under, base);
}

const char *pcost_option_text(const struct pcost_session *s, const char *key, char *buf, size_t len)
{
	cJSON *o = s->options_json ? cJSON_Parse(s->options_json) : NULL;
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key); /* cJSON: NULL when o is */

	buf[0] = 0;
	if (cJSON_IsString(v))
		snprintf(buf, len, "%s", v->valuestring);
	else if (cJSON_IsNumber(v))
		snprintf(buf, len, "%g", v->valuedouble);
	cJSON_Delete(o);
	return buf;
}

double pcost_option_number(const struct pcost_session *s, const char *key)
{
	cJSON *o = s->options_json ? cJSON_Parse(s->options_json) : NULL;
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	double x = cJSON_IsNumber(v) ? v->valuedouble : NAN;

	cJSON_Delete(o);
	return x;
}
