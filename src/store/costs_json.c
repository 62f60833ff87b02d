// SPDX-License-Identifier: MIT
/*
 * store/costs_json: a cost table <-> JSON, the form `costs --format json`
 * prints and `costs --import` reads back (so a machine's table can join
 * another store).  The reader trusts nothing: every member known and typed,
 * strings printable UTF-8 of bounded length, figures finite or null, counts
 * capped; on any error nothing is returned and one line says where.
 */
#include "store/store.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "store/columns.h"

#define FORMAT_NAME "probecost-costs"
#define FORMAT_VERSION 1
#define MAX_TABLES 1000
#define MAX_ENTRIES 10000
#define MAX_ENV (1u << 20)

static void add_num(cJSON *o, const char *k, double v)
{
	cJSON_AddItemToObject(o, k, pcost_json_exact(v));
}

cJSON *pcost_cost_table_to_json(const struct pcost_cost_table *t)
{
	cJSON *o = cJSON_CreateObject(), *arr;

	cJSON_AddStringToObject(o, "format", FORMAT_NAME);
	add_num(o, "format_version", FORMAT_VERSION);
	pcost_json_add_cols(o, &pcost_cost_table_cols, t);
	arr = cJSON_AddArrayToObject(o, "entries");
	for (size_t i = 0; i < t->n; i++) {
		cJSON *x = cJSON_CreateObject();

		pcost_json_add_cols(x, &pcost_cost_entry_cols, &t->e[i]);
		cJSON_AddItemToArray(arr, x);
	}
	return o;
}

/* ---- reader -------------------------------------------------------------------- */

struct rd {
	char *err;
	size_t len;
	char where[64];
};

__attribute__((format(printf, 2, 3))) static int bad(struct rd *r, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(r->err, r->len, "%s: %s", r->where, msg);
	return -EINVAL;
}

static int known(struct rd *r, const cJSON *o, const char *const *keys, size_t n)
{
	const cJSON *m;

	cJSON_ArrayForEach(m, o)
	{
		size_t i = 0;

		while (i < n && strcmp(keys[i], m->string))
			i++;
		if (i == n)
			return bad(r, "unknown member '%.64s'", m->string);
	}
	return 0;
}

/* Known members: t's columns and extra. */
static int known_cols(struct rd *r, const cJSON *o, const struct pcost_table *t,
		      const char *const *extra, size_t nextra)
{
	const char *keys[32];
	size_t n = 0;

	if (t->n + nextra > ARRAY_SIZE(keys))
		abort(); /* a description this long is a bug: make keys longer */
	for (size_t i = 0; i < nextra; i++)
		keys[n++] = extra[i];
	pcost_for_each_col(c, t) {
		if (c->json)
			keys[n++] = c->json;
	}
	return known(r, o, keys, n);
}

/* A finite number in [min, max], or null (NaN) when nullable. */
static int num(struct rd *r, const cJSON *o, const char *k, double min, double max, bool nullable,
	       double *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	double x;

	*out = NAN;
	if ((!v || cJSON_IsNull(v)) && nullable)
		return 0;
	if (!pcost_json_number(v, &x) || !isfinite(x) || x < min || x > max)
		return bad(r, "'%s' must be a number in %g..%g", k, min, max);
	*out = x;
	return 0;
}

/*
 * Column c of o: a string of printable UTF-8 of bounded length, a finite
 * number in its range, true or false, an object; null (or absent) where the
 * column may be NULL.  The value in *v (v->own: an object's text).
 */
static int get_col(struct rd *r, const cJSON *o, const struct pcost_column *c, struct pcost_val *v)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, c->json);
	bool nullable = !(c->flags & PCOST_COL_JSON_STRICT) &&
			(c->type == PCOST_SQL_TEXT || !(c->flags & PCOST_COL_NOT_NULL) ||
			 (c->flags & PCOST_COL_ROWID));
	const char *k = c->json;

	v->t = PCOST_VAL_NULL;
	if (c->type != PCOST_SQL_BOOL && nullable && (!j || cJSON_IsNull(j)))
		return 0;
	if (c->form == PCOST_JSON_OBJECT) {
		if (!cJSON_IsObject(j))
			return bad(r, "'%s' must be an object", k);
		v->t = PCOST_VAL_TEXT;
		v->s = v->own = cJSON_PrintUnformatted(j);
		if (strlen(v->own) > MAX_ENV)
			return bad(r, "'%s' is larger than %u bytes", k, MAX_ENV);
	} else if (c->type == PCOST_SQL_BOOL) {
		if (!cJSON_IsBool(j))
			return bad(r, "'%s' must be true or false", k);
		v->t = PCOST_VAL_INT;
		v->i = cJSON_IsTrue(j);
	} else if (c->type == PCOST_SQL_TEXT) {
		if (!j || !cJSON_IsString(j))
			return bad(r, "'%s' must be a string", k);
		if (strlen(j->valuestring) >= (size_t)c->hi ||
		    !pcost_text_printable(j->valuestring))
			return bad(r, "'%s' is longer than %d bytes or not printable UTF-8", k,
				   (int)c->hi - 1);
		v->t = PCOST_VAL_TEXT;
		v->s = j->valuestring;
	} else {
		v->t = PCOST_VAL_REAL;
		return num(r, o, k, c->lo, c->hi, false, &v->r);
	}
	return 0;
}

/*
 * rec's fields from o's members, each checked.  A word a hook does not know
 * (an event, a status) is not refused here: *unknown says there was one.
 */
static int read_cols(struct rd *r, const cJSON *o, const struct pcost_table *t, void *rec,
		     bool *unknown)
{
	pcost_for_each_col(c, t) {
		struct pcost_val v = { 0 };
		int rc;

		if (!c->json)
			continue;
		rc = get_col(r, o, c, &v);
		if (!rc && pcost_col_set(c, rec, &v))
			*unknown = true;
		free(v.own);
		if (rc)
			return rc;
	}
	return 0;
}

static int read_entry(struct rd *r, const cJSON *o, struct pcost_cost_table *t)
{
	const cJSON *ev = cJSON_GetObjectItemCaseSensitive(o, "event");
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(o, "status");
	struct pcost_cost_entry *e;
	bool unknown = false;
	int rc;

	if (!cJSON_IsObject(o))
		return bad(r, "an entry must be an object");
	if ((rc = known_cols(r, o, &pcost_cost_entry_cols, NULL, 0)))
		return rc;
	e = pcost_cost_add(t, NULL, NULL, PCOST_CE_RUN, NULL, NULL);
	if ((rc = read_cols(r, o, &pcost_cost_entry_cols, e, &unknown)))
		return rc;
	if (unknown)
		return bad(r, "unknown event '%.32s' or status '%.32s'", ev->valuestring,
			   st->valuestring);
	if (isfinite(e->lo) && isfinite(e->hi) && e->lo > e->hi)
		return bad(r, "cost_ns_lo is above cost_ns_hi");
	if ((e->status == PCOST_COST_MEASURED || e->status == PCOST_COST_DERIVED) !=
	    isfinite(e->ns))
		return bad(r, "a %s entry %s a cost_ns", st->valuestring,
			   isfinite(e->ns) ? "cannot have" : "must have");
	return 0;
}

static int read_table(struct rd *r, const cJSON *o, struct pcost_cost_table *t)
{
	static const char *const extra[] = { "format", "format_version", "entries" };
	const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(o, "format");
	const cJSON *entries = cJSON_GetObjectItemCaseSensitive(o, "entries"), *x;
	bool unknown = false;
	double ver;
	int rc, k = 0;

	if (!cJSON_IsObject(o))
		return bad(r, "a cost table must be an object");
	if ((rc = known_cols(r, o, &pcost_cost_table_cols, extra, ARRAY_SIZE(extra))))
		return rc;
	if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, FORMAT_NAME))
		return bad(r, "'format' must be \"%s\"", FORMAT_NAME);
	if ((rc = num(r, o, "format_version", 1, FORMAT_VERSION, false, &ver)) ||
	    (rc = read_cols(r, o, &pcost_cost_table_cols, t, &unknown)))
		return rc;
	if (!cJSON_IsArray(entries) || cJSON_GetArraySize(entries) > MAX_ENTRIES)
		return bad(r, "'entries' must be an array of at most %d", MAX_ENTRIES);
	cJSON_ArrayForEach(x, entries)
	{
		size_t at = strlen(r->where);

		snprintf(r->where + at, sizeof(r->where) - at, " entry %d", k++);
		if ((rc = read_entry(r, x, t)))
			return rc;
		r->where[at] = 0;
	}
	pcost_cost_set_placement(t, 0, t->cpu);
	return 0;
}

int pcost_cost_tables_from_text(const char *buf, size_t len, struct pcost_cost_table **out,
				size_t *n, char *err, size_t errlen)
{
	cJSON *j = cJSON_ParseWithLength(buf, len), *list, *x;
	struct rd r = { .err = err, .len = errlen };
	struct pcost_cost_table *v = NULL;
	size_t k = 0, count;
	int rc = 0;

	*out = NULL;
	*n = 0;
	snprintf(r.where, sizeof(r.where), "the file");
	if (!j) {
		snprintf(err, errlen, "not JSON");
		return -EINVAL;
	}
	/* `costs --format json` ({"tables": [...]}), an array of tables, or one table. */
	list = cJSON_IsObject(j) && cJSON_HasObjectItem(j, "tables")
		       ? cJSON_GetObjectItemCaseSensitive(j, "tables")
		       : j;
	if (cJSON_IsObject(list) && cJSON_HasObjectItem(list, "entries")) {
		count = 1;
	} else if (cJSON_IsArray(list)) {
		count = (size_t)cJSON_GetArraySize(list);
	} else {
		rc = bad(&r, "expected a cost table, an array of them, or {\"tables\": [...]}");
		goto out;
	}
	if (!count || count > MAX_TABLES) {
		rc = bad(&r, "expected 1 to %d cost tables, found %zu", MAX_TABLES, count);
		goto out;
	}
	v = xcalloc(count, sizeof(*v));
	for (x = cJSON_IsArray(list) ? list->child : list; x && !rc;
	     x = cJSON_IsArray(list) ? x->next : NULL) {
		pcost_cost_table_init(&v[k]);
		snprintf(r.where, sizeof(r.where), "table %zu", k);
		rc = read_table(&r, x, &v[k++]);
	}
out:
	cJSON_Delete(j);
	if (rc) {
		pcost_cost_tables_free(v, k);
		return rc;
	}
	*out = v;
	*n = k;
	return 0;
}
