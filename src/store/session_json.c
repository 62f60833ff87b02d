// SPDX-License-Identifier: MIT
/*
 * session_json: a session <-> JSON with every raw sample, the exchange format
 * of `export` / `import` and the body of `run --format json`.
 *
 * The reader trusts nothing: every member must be known, of the right type,
 * within range and length; strings are UTF-8 without control characters (they
 * end up on terminals); counts are capped so a hostile file cannot exhaust
 * memory.  On any error *s is released and one line says where and what.
 */
#include "store/store.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/columns.h"

#define FORMAT_NAME "probecost-session"
#define FORMAT_VERSION 1

/* Caps against hostile input (and columns.h's); each far above anything probecost measures. */
#define MAX_CONFIGS 100000
#define MAX_SAMPLES 10000000 /* per configuration */
#define MAX_SERIES 100000
#define MAX_SERIES_SAMPLES 100000000 /* per series */

/* ---- writer ---------------------------------------------------------------- */

/*
 * Strings are written as printable UTF-8: what a store holds from before the
 * command line was quoted (a tab, other encodings' bytes) gets \xNN escapes,
 * so every export is valid JSON that `import` takes.
 */
static void add_str(cJSON *o, const char *k, const char *v)
{
	char *e;

	if (!v) {
		cJSON_AddNullToObject(o, k);
	} else if (pcost_text_printable(v)) {
		cJSON_AddStringToObject(o, k, v);
	} else {
		e = pcost_text_escape(v);
		cJSON_AddStringToObject(o, k, e);
		free(e);
	}
}

cJSON *pcost_json_exact(double v)
{
	char buf[32];

	if (!isfinite(v))
		return cJSON_CreateNull();
	snprintf(buf, sizeof(buf), "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, sizeof(buf), "%.17g", v);
	return cJSON_CreateRaw(buf);
}

bool pcost_json_number(const cJSON *v, double *out)
{
	char *end;

	if (cJSON_IsNumber(v)) {
		*out = v->valuedouble;
		return true;
	}
	if (!cJSON_IsRaw(v) || !v->valuestring)
		return false;
	*out = strtod(v->valuestring, &end);
	return end != v->valuestring && !*end;
}

static void add_num(cJSON *o, const char *k, double v)
{
	cJSON_AddItemToObject(o, k, pcost_json_exact(v));
}

char *pcost_env_json_kernel(const char *env_json)
{
	cJSON *j = env_json ? cJSON_Parse(env_json) : NULL;
	const cJSON *k = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(j, "fields"), "kernel.release");
	char *out = cJSON_IsString(k) ? xstrdup(k->valuestring) : NULL;

	cJSON_Delete(j);
	return out;
}

/* A JSON object text as an object; text that does not parse is kept as a string. */
static void add_json_text(cJSON *o, const char *k, const char *text)
{
	cJSON *v = text ? cJSON_Parse(text) : NULL;

	if (v && cJSON_IsObject(v))
		cJSON_AddItemToObject(o, k, v);
	else {
		cJSON_Delete(v);
		add_str(o, k, text);
	}
}

void pcost_json_add_cols(cJSON *o, const struct pcost_table *t, const void *rec)
{
	pcost_for_each_col(c, t) {
		struct pcost_val v;
		char dec[24];

		if (!c->json)
			continue;
		pcost_col_get_json(c, rec, &v);
		if ((c->flags & PCOST_COL_JSON_OPT) &&
		    (v.t == PCOST_VAL_NULL ||
		     ((c->flags & PCOST_COL_JSON_ZERO) && v.t == PCOST_VAL_INT && !v.i)))
			continue;
		switch (v.t) {
		case PCOST_VAL_NULL:
			cJSON_AddNullToObject(o, c->json);
			break;
		case PCOST_VAL_INT:
			if (c->form == PCOST_JSON_DECIMAL) {
				snprintf(dec, sizeof(dec), "%" PRIu64, (uint64_t)v.i);
				cJSON_AddStringToObject(o, c->json, dec);
			} else if (c->type == PCOST_SQL_BOOL) {
				cJSON_AddBoolToObject(o, c->json, v.i);
			} else {
				add_num(o, c->json, v.r);
			}
			break;
		case PCOST_VAL_REAL:
			add_num(o, c->json, v.r);
			break;
		case PCOST_VAL_TEXT:
			if (c->form == PCOST_JSON_OBJECT)
				add_json_text(o, c->json, v.s);
			else
				add_str(o, c->json, v.s);
			break;
		}
		pcost_val_release(&v);
	}
}

static cJSON *sample_to_json(const struct pcost_session *s, const struct pcost_run_sample *r)
{
	cJSON *o = cJSON_CreateObject();

	pcost_json_add_cols(o, &pcost_sample_cols, r);
	/* The session's figures: one value each, null where the run gave none. */
	if (s->nmetrics) {
		cJSON *m = cJSON_AddArrayToObject(o, "metrics");

		for (size_t k = 0; k < s->nmetrics; k++)
			cJSON_AddItemToArray(m, pcost_json_exact(r->metrics ? r->metrics[k] : NAN));
	}
	return o;
}

static cJSON *metrics_to_json(const struct pcost_session *s)
{
	cJSON *arr = cJSON_CreateArray();

	for (size_t k = 0; k < s->nmetrics; k++) {
		cJSON *o = cJSON_CreateObject();

		pcost_json_add_cols(o, &pcost_metric_cols, &s->metrics[k]);
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

cJSON *pcost_session_to_json(const struct pcost_session *s)
{
	cJSON *o = cJSON_CreateObject(), *configs, *series;

	cJSON_AddStringToObject(o, "format", FORMAT_NAME);
	add_num(o, "format_version", FORMAT_VERSION);
	pcost_json_add_cols(o, &pcost_session_cols, s);
	if (s->nmetrics)
		cJSON_AddItemToObject(o, "metrics", metrics_to_json(s));

	configs = cJSON_AddArrayToObject(o, "configs");
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct pcost_config *c = &s->configs[i];
		cJSON *co = cJSON_CreateObject(), *samples;

		pcost_json_add_cols(co, &pcost_config_cols, c);
		samples = cJSON_AddArrayToObject(co, "samples");
		for (size_t j = 0; j < c->nsamples; j++)
			cJSON_AddItemToArray(samples, sample_to_json(s, &c->samples[j]));
		cJSON_AddItemToArray(configs, co);
	}

	series = cJSON_AddArrayToObject(o, "series");
	for (size_t i = 0; i < s->nseries; i++) {
		const struct pcost_counter_series *c = &s->series[i];
		cJSON *so = cJSON_CreateObject(), *ns;

		pcost_json_add_cols(so, &pcost_series_cols, c);
		ns = cJSON_AddArrayToObject(so, "ns");
		for (size_t j = 0; j < c->n; j++)
			cJSON_AddItemToArray(ns, pcost_json_exact(c->ns[j]));
		cJSON_AddItemToArray(series, so);
	}
	return o;
}

/* ---- reader ---------------------------------------------------------------- */

struct reader {
	char *err;
	size_t errlen;
	char where[96];	 /* "configs[3].samples[17]" */
	size_t ci;	 /* index of the configuration being read */
	size_t nmetrics; /* the session's figures: values each sample has */
};

__attribute__((format(printf, 3, 4))) static int fail(struct reader *r, const char *key,
						      const char *fmt, ...)
{
	char msg[192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!*r->where && !key)
		snprintf(r->err, r->errlen, "%s", msg);
	else
		snprintf(r->err, r->errlen, "%s%s%s: %s", r->where, *r->where && key ? "." : "",
			 key ? key : "", msg);
	return -EINVAL;
}

/*
 * Only known members, each once: a typo or a smuggled field is an error.
 * known[0..nreq) must be there; known[nreq..n) may be (added in later versions).
 */
static int check_members_opt(struct reader *r, const cJSON *o, const char *const *known, size_t n,
			     size_t nreq)
{
	const cJSON *m, *m2;

	if (!cJSON_IsObject(o))
		return fail(r, NULL, "not an object");
	cJSON_ArrayForEach(m, o)
	{
		size_t i;

		for (i = 0; i < n; i++)
			if (m->string && !strcmp(m->string, known[i]))
				break;
		if (i == n)
			return fail(r, m->string ? m->string : "?", "unknown member");
		for (m2 = m->next; m2; m2 = m2->next)
			if (m2->string && !strcmp(m2->string, m->string))
				return fail(r, m->string, "member given twice");
	}
	for (size_t i = 0; i < nreq; i++)
		if (!cJSON_GetObjectItemCaseSensitive(o, known[i]))
			return fail(r, known[i], "missing");
	return 0;
}

/* Absent from an older export, or left out where not recorded. */
static bool json_optional(const struct pcost_column *c)
{
	return (c->flags & PCOST_COL_JSON_OPT) || c->has;
}

/*
 * check_members_opt() with the keys of t's columns: lead and the required
 * columns and tail must be there, the optional columns and opt may be.
 */
static int check_cols(struct reader *r, const cJSON *o, const struct pcost_table *t,
		      const char *const *lead, size_t nlead, const char *const *tail, size_t ntail,
		      const char *const *opt, size_t nopt)
{
	const char *known[64];
	size_t n = 0, nreq;

	if (nlead + ntail + nopt + t->n > ARRAY_SIZE(known))
		abort(); /* a description this long is a bug: make known longer */
	for (size_t i = 0; i < nlead; i++)
		known[n++] = lead[i];
	pcost_for_each_col(c, t) {
		if (c->json && !json_optional(c))
			known[n++] = c->json;
	}
	for (size_t i = 0; i < ntail; i++)
		known[n++] = tail[i];
	nreq = n;
	pcost_for_each_col(c, t) {
		if (c->json && json_optional(c))
			known[n++] = c->json;
	}
	for (size_t i = 0; i < nopt; i++)
		known[n++] = opt[i];
	return check_members_opt(r, o, known, n, nreq);
}

/* Printable UTF-8 (no control characters), shorter than max bytes. */
static bool text_ok(const char *s, size_t max)
{
	return strlen(s) < max && pcost_text_printable(s);
}

/* *out = o.key, in o (NULL when null and nullable). */
static int get_str(struct reader *r, const cJSON *o, const char *key, size_t max, bool nullable,
		   const char **out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	*out = NULL;
	if (cJSON_IsNull(v) && nullable)
		return 0;
	if (!cJSON_IsString(v) || !v->valuestring)
		return fail(r, key, nullable ? "not a string or null" : "not a string");
	if (!text_ok(v->valuestring, max))
		return fail(r, key, "longer than %zu bytes, not UTF-8 or has control characters",
			    max - 1);
	*out = v->valuestring;
	return 0;
}

static int get_int(struct reader *r, const cJSON *o, const char *key, double min, double max,
		   double *out)
{
	double x;

	if (!pcost_json_number(cJSON_GetObjectItemCaseSensitive(o, key), &x))
		return fail(r, key, "not a number");
	if (!isfinite(x) || floor(x) != x)
		return fail(r, key, "not an integer");
	if (x < min || x > max)
		return fail(r, key, "%.17g out of range [%.17g, %.17g]", x, min, max);
	*out = x;
	return 0;
}

static int get_real(struct reader *r, const cJSON *o, const char *key, double min, double max,
		    double *out)
{
	double x;

	if (!pcost_json_number(cJSON_GetObjectItemCaseSensitive(o, key), &x) || !isfinite(x))
		return fail(r, key, "not a finite number");
	if (x < min || x > max)
		return fail(r, key, "%g out of range [%g, %g]", x, min, max);
	*out = x;
	return 0;
}

static int get_bool(struct reader *r, const cJSON *o, const char *key, bool *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsBool(v))
		return fail(r, key, "not true or false");
	*out = cJSON_IsTrue(v);
	return 0;
}

/* An object member kept as compact JSON text; null gives NULL. */
static int get_object_text(struct reader *r, const cJSON *o, const char *key, char **out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	*out = NULL;
	if (cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsObject(v))
		return fail(r, key, "not an object or null");
	*out = cJSON_PrintUnformatted(v);
	if (!*out)
		return fail(r, key, "out of memory");
	if (strlen(*out) > 16 * PCOST_MAX_TEXT_LEN)
		return fail(r, key, "larger than %d bytes", 16 * PCOST_MAX_TEXT_LEN);
	return 0;
}

static const cJSON *get_array(struct reader *r, const cJSON *o, const char *key, size_t max,
			      size_t *n)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	int len;

	if (!cJSON_IsArray(v)) {
		fail(r, key, "not an array");
		return NULL;
	}
	len = cJSON_GetArraySize(v);
	if (len < 0 || (size_t)len > max) {
		fail(r, key, "more than %zu elements", max);
		return NULL;
	}
	*n = (size_t)len;
	return v;
}

/* A word a hook reads (a kind, a fault, a direction); null where the column takes it. */
static int get_word(struct reader *r, const cJSON *o, const struct pcost_column *c,
		    struct pcost_val *v)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, c->json);

	if (cJSON_IsString(j) && j->valuestring) {
		v->t = PCOST_VAL_TEXT;
		v->s = j->valuestring;
	} else if (!cJSON_IsNull(j) || (c->flags & PCOST_COL_JSON_STRICT)) {
		return fail(r, c->json, "%s", c->bad);
	}
	return 0;
}

/* A 64-bit unsigned integer as a decimal string (the seed). */
static int get_decimal(struct reader *r, const cJSON *o, const char *key, struct pcost_val *v)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
	char *end;

	if (!cJSON_IsString(j) || !j->valuestring[0] || j->valuestring[0] < '0' ||
	    j->valuestring[0] > '9' || strlen(j->valuestring) > 20)
		return fail(r, key, "not a decimal string");
	errno = 0;
	v->i = (int64_t)strtoull(j->valuestring, &end, 10);
	if (errno || *end)
		return fail(r, key, "not a 64-bit decimal number");
	v->t = PCOST_VAL_INT;
	return 0;
}

/* A char[] column: printable UTF-8 that fits (with its NUL). */
static int get_chars(struct reader *r, const cJSON *o, const struct pcost_column *c,
		     struct pcost_val *v)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, c->json);

	if (!(c->flags & PCOST_COL_JSON_OPT))
		return get_str(r, o, c->json, c->size, false, &v->s);
	if (!cJSON_IsString(j) || !text_ok(j->valuestring, c->size))
		return fail(r, c->json, "not a string of at most %zu bytes of UTF-8 text",
			    c->size - 1);
	v->s = j->valuestring;
	return 0;
}

/* The value of column c in o, checked against its type and range. */
static int get_col(struct reader *r, const cJSON *o, const struct pcost_column *c,
		   struct pcost_val *v)
{
	bool b = false;
	double d = 0; /* the analyzer does not follow fail() (variadic) to its -EINVAL */
	int rc;

	if (c->form == PCOST_JSON_DECIMAL)
		return get_decimal(r, o, c->json, v);
	if (c->form == PCOST_JSON_OBJECT) {
		rc = get_object_text(r, o, c->json, &v->own);
		v->t = v->own ? PCOST_VAL_TEXT : PCOST_VAL_NULL;
		v->s = v->own;
		return rc;
	}
	if (c->form == PCOST_JSON_HOOK || c->c == PCOST_C_HOOK)
		return get_word(r, o, c, v);
	if (c->type == PCOST_SQL_BOOL) {
		rc = get_bool(r, o, c->json, &b);
		v->t = PCOST_VAL_INT;
		v->i = b;
		return rc;
	}
	switch (c->c) {
	case PCOST_C_INT:
	case PCOST_C_UINT:
		rc = get_int(r, o, c->json, c->lo, c->hi, &d);
		v->t = PCOST_VAL_INT;
		v->i = (int64_t)d;
		return rc;
	case PCOST_C_REAL:
		v->t = PCOST_VAL_REAL;
		return get_real(r, o, c->json, c->lo, c->hi, &v->r);
	case PCOST_C_CHARS:
		v->t = PCOST_VAL_TEXT;
		return get_chars(r, o, c, v);
	default:
		rc = get_str(r, o, c->json, (size_t)c->hi, !(c->flags & PCOST_COL_JSON_STRICT),
			     &v->s);
		v->t = v->s ? PCOST_VAL_TEXT : PCOST_VAL_NULL;
		return rc;
	}
}

/*
 * Not recorded: an optional column absent or null, or a column recorded with
 * others (has: how busy the machine was, a service's CPU) when all of them are.
 */
static bool not_recorded(const cJSON *o, const struct pcost_table *t, const struct pcost_column *c)
{
	const cJSON *j;

	if (c->has) {
		pcost_for_each_col(x, t) {
			if (x->has != c->has)
				continue;
			j = cJSON_GetObjectItemCaseSensitive(o, x->json);
			if (j && !cJSON_IsNull(j))
				return false;
		}
		return true;
	}
	j = cJSON_GetObjectItemCaseSensitive(o, c->json);
	return (c->flags & PCOST_COL_JSON_OPT) && (!j || cJSON_IsNull(j));
}

/* rec's fields from o's members, each checked; the first that is not right fails. */
static int read_cols(struct reader *r, const cJSON *o, const struct pcost_table *t, void *rec)
{
	pcost_for_each_col(c, t) {
		struct pcost_val v = { 0 };
		int rc;

		if (!c->json || not_recorded(o, t, c))
			continue;
		rc = get_col(r, o, c, &v);
		if (!rc && pcost_col_set_json(c, rec, &v))
			rc = fail(r, c->json, "%s", c->bad);
		pcost_val_release(&v);
		if (rc)
			return rc;
	}
	return 0;
}

/* metrics: one finite number or null per figure of the session (r->nmetrics); absent: none. */
static int read_sample_metrics(struct reader *r, const cJSON *o, struct pcost_run_sample *x)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(o, "metrics"), *e;
	size_t n, k = 0;

	if (!arr)
		return 0;
	if (!get_array(r, o, "metrics", r->nmetrics, &n))
		return -EINVAL;
	if (n != r->nmetrics)
		return fail(r, "metrics", "%zu values for the session's %zu figures", n,
			    r->nmetrics);
	if (!n)
		return 0;
	x->metrics = xcalloc(n + 1, sizeof(double));
	cJSON_ArrayForEach(e, arr)
	{
		if (cJSON_IsNull(e)) {
			x->metrics[k++] = NAN;
		} else if (pcost_json_number(e, &x->metrics[k]) && isfinite(x->metrics[k])) {
			k++;
		} else {
			free(x->metrics);
			x->metrics = NULL;
			return fail(r, "metrics", "element %zu is not a finite number or null", k);
		}
	}
	return 0;
}

static int read_sample(struct reader *r, const cJSON *o, struct pcost_run_sample *out)
{
	/* optional: the session's figures (run sessions with --metric, a workload's facts) */
	static const char *const opt[] = { "metrics" };
	struct pcost_run_sample x = { 0 };
	int rc;

	if ((rc = check_cols(r, o, &pcost_sample_cols, NULL, 0, NULL, 0, opt, ARRAY_SIZE(opt))) ||
	    (rc = read_cols(r, o, &pcost_sample_cols, &x)) || (rc = read_sample_metrics(r, o, &x)))
		return rc;
	*out = x;
	return 0;
}

static int read_config(struct reader *r, const cJSON *o, struct pcost_session *s)
{
	static const char *const tail[] = { "samples" };
	const cJSON *arr, *e;
	struct pcost_config *c;
	size_t n, j = 0;
	int rc;

	if ((rc = check_cols(r, o, &pcost_config_cols, NULL, 0, tail, ARRAY_SIZE(tail), NULL, 0)))
		return rc;
	c = pcost_session_add_config(s, NULL, NULL, NULL, NULL, NULL);
	if ((rc = read_cols(r, o, &pcost_config_cols, c)))
		return rc;
	if (!(arr = get_array(r, o, "samples", MAX_SAMPLES, &n)))
		return -EINVAL;
	c->samples = xcalloc(n ? n : 1, sizeof(*c->samples));
	c->cap = n ? n : 1;
	cJSON_ArrayForEach(e, arr)
	{
		snprintf(r->where, sizeof(r->where), "configs[%zu].samples[%zu]", r->ci, j++);
		if ((rc = read_sample(r, e, &c->samples[c->nsamples])))
			return rc;
		c->nsamples++;
	}
	snprintf(r->where, sizeof(r->where), "configs[%zu]", r->ci);
	return 0;
}

static int read_series(struct reader *r, const cJSON *o, struct pcost_session *s)
{
	static const char *const tail[] = { "ns" };
	struct pcost_counter_series *c;
	const cJSON *arr, *e;
	size_t n, j = 0;
	int rc;

	if ((rc = check_cols(r, o, &pcost_series_cols, NULL, 0, tail, ARRAY_SIZE(tail), NULL, 0)))
		return rc;
	c = pcost_session_add_series(s, NULL, NULL, NULL, 0, NULL, NULL, 0);
	if ((rc = read_cols(r, o, &pcost_series_cols, c)))
		return rc;
	if (!(arr = get_array(r, o, "ns", MAX_SERIES_SAMPLES, &n)))
		return -EINVAL;
	free(c->ns);
	c->ns = xcalloc(n ? n : 1, sizeof(double));
	cJSON_ArrayForEach(e, arr)
	{
		/* Timings are non-negative; a week in one call is already absurd. */
		if (!pcost_json_number(e, &c->ns[c->n]) || !isfinite(c->ns[c->n]) ||
		    c->ns[c->n] < 0 || c->ns[c->n] > 6.048e14)
			return fail(r, "ns", "element %zu is not a time in [0, 6.048e14] ns", j);
		c->n++;
		j++;
	}
	return 0;
}

/* A figure's name as --metric takes it: [A-Za-z][A-Za-z0-9_]*, under 48 bytes. */
static bool figure_name_ok(const char *n)
{
	size_t l = strlen(n);

	return l > 0 && l < 48 && ((*n >= 'A' && *n <= 'Z') || (*n >= 'a' && *n <= 'z')) &&
	       strspn(n, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") == l;
}

/* The session's figures: [{name, unit, better: "higher"|"lower"|null}]; absent: none. */
static int read_metrics(struct reader *r, const cJSON *j, struct pcost_session *s)
{
	const cJSON *arr, *e;
	size_t n, i = 0;
	int rc = 0;

	if (!cJSON_HasObjectItem(j, "metrics"))
		return 0;
	if (!(arr = get_array(r, j, "metrics", 1024, &n)))
		return -EINVAL;
	cJSON_ArrayForEach(e, arr)
	{
		struct pcost_session_metric m = { 0 };

		snprintf(r->where, sizeof(r->where), "metrics[%zu]", i++);
		if ((rc = check_cols(r, e, &pcost_metric_cols, NULL, 0, NULL, 0, NULL, 0)) ||
		    (rc = read_cols(r, e, &pcost_metric_cols, &m)))
			goto next;
		if (!m.name || !figure_name_ok(m.name))
			rc = fail(r, "name", "not a letter then letters, digits or _");
		if (!rc && pcost_session_metric_find(s, m.name) >= 0)
			rc = fail(r, "name", "'%s' given twice", m.name);
		if (!rc)
			pcost_session_add_metric(s, m.name, m.unit, m.better);
next:
		free(m.name);
		free(m.unit);
		if (rc)
			return rc;
	}
	r->where[0] = '\0';
	r->nmetrics = s->nmetrics;
	return 0;
}

static int read_session(struct reader *r, const cJSON *j, struct pcost_session *s)
{
	static const char *const lead[] = { "format", "format_version" };
	static const char *const tail[] = { "configs", "series" };
	/* optional: run sessions with figures (--metric, a workload's facts) */
	static const char *const opt[] = { "metrics" };
	const cJSON *v, *arr, *e;
	size_t n, i;
	double d = 0;
	int rc;

	if (!cJSON_IsObject(j))
		return fail(r, NULL, "a session is a JSON object");
	v = cJSON_GetObjectItemCaseSensitive(j, "format");
	if (!cJSON_IsString(v) || strcmp(v->valuestring, FORMAT_NAME))
		return fail(r, "format", "not \"" FORMAT_NAME "\"; is this a probecost export?");
	v = cJSON_GetObjectItemCaseSensitive(j, "format_version");
	if (pcost_json_number(v, &d) && d > FORMAT_VERSION)
		return fail(r, "format_version",
			    "%g is newer than this probecost reads (%d); upgrade probecost", d,
			    FORMAT_VERSION);
	if ((rc = check_cols(r, j, &pcost_session_cols, lead, ARRAY_SIZE(lead), tail,
			     ARRAY_SIZE(tail), opt, ARRAY_SIZE(opt))) ||
	    (rc = get_int(r, j, "format_version", 1, FORMAT_VERSION, &d)) ||
	    (rc = read_cols(r, j, &pcost_session_cols, s)) || (rc = read_metrics(r, j, s)))
		return rc;
	if (!(arr = get_array(r, j, "configs", MAX_CONFIGS, &n)))
		return -EINVAL;
	s->configs = xcalloc(n ? n : 1, sizeof(*s->configs));
	s->cap_configs = n ? n : 1;
	i = 0;
	cJSON_ArrayForEach(e, arr)
	{
		r->ci = i;
		snprintf(r->where, sizeof(r->where), "configs[%zu]", i++);
		if ((rc = read_config(r, e, s)))
			return rc;
	}
	r->where[0] = '\0';
	if (!(arr = get_array(r, j, "series", MAX_SERIES, &n)))
		return -EINVAL;
	s->series = xcalloc(n ? n : 1, sizeof(*s->series));
	s->cap_series = n ? n : 1;
	i = 0;
	cJSON_ArrayForEach(e, arr)
	{
		snprintf(r->where, sizeof(r->where), "series[%zu]", i++);
		if ((rc = read_series(r, e, s)))
			return rc;
	}
	return 0;
}

int pcost_session_from_json(const cJSON *j, struct pcost_session *s, char *err, size_t errlen)
{
	char dummy[2];
	struct reader r = { .err = err && errlen ? err : dummy,
			    .errlen = err && errlen ? errlen : sizeof(dummy) };
	int rc;

	r.err[0] = '\0';
	pcost_session_init(s, PCOST_SESSION_RUN);
	rc = read_session(&r, j, s);
	if (rc)
		pcost_session_release(s);
	return rc;
}
