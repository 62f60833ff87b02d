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

#define FORMAT_NAME "probecost-costs"
#define FORMAT_VERSION 1
#define MAX_TABLES 1000
#define MAX_ENTRIES 10000
#define MAX_STR 4096
#define MAX_ENV (1u << 20)

static void add_str(cJSON *o, const char *k, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

static void add_num(cJSON *o, const char *k, double v)
{
	cJSON_AddItemToObject(o, k, pcost_json_exact(v));
}

cJSON *pcost_cost_table_to_json(const struct pcost_cost_table *t)
{
	cJSON *o = cJSON_CreateObject(), *env = t->env_json ? cJSON_Parse(t->env_json) : NULL, *arr;

	cJSON_AddStringToObject(o, "format", FORMAT_NAME);
	add_num(o, "format_version", FORMAT_VERSION);
	add_num(o, "id", (double)t->id);
	add_num(o, "created", (double)t->created);
	add_str(o, "level", t->level);
	add_str(o, "version", t->version);
	add_str(o, "host", t->host);
	add_str(o, "kernel", t->kernel);
	add_str(o, "cpu", t->cpu);
	add_num(o, "seconds", t->seconds);
	cJSON_AddBoolToObject(o, "complete", t->complete);
	if (env)
		cJSON_AddItemToObject(o, "env", env);
	else
		cJSON_AddNullToObject(o, "env");
	arr = cJSON_AddArrayToObject(o, "entries");
	for (size_t i = 0; i < t->n; i++) {
		const struct pcost_cost_entry *e = &t->e[i];
		cJSON *x = cJSON_CreateObject();

		add_str(x, "subject", e->subject);
		add_str(x, "kind", e->kind);
		cJSON_AddStringToObject(x, "event", pcost_cost_event_name(e->event));
		cJSON_AddStringToObject(x, "status", pcost_cost_status_name(e->status));
		add_num(x, "cost_ns", e->ns);
		add_num(x, "cost_ns_lo", e->lo);
		add_num(x, "cost_ns_hi", e->hi);
		add_num(x, "df", e->df);
		add_str(x, "workload", e->workload);
		add_str(x, "method", e->method);
		add_str(x, "why", e->why);
		if (e->session_id)
			add_num(x, "session_id", (double)e->session_id);
		else
			cJSON_AddNullToObject(x, "session_id");
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

/* A string (or null when nullable) of printable UTF-8, at most MAX_STR bytes; copied. */
static int str(struct rd *r, const cJSON *o, const char *k, bool nullable, char **out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	*out = NULL;
	if ((!v || cJSON_IsNull(v)) && nullable)
		return 0;
	if (!v || !cJSON_IsString(v))
		return bad(r, "'%s' must be a string", k);
	if (strlen(v->valuestring) > MAX_STR || !pcost_text_printable(v->valuestring))
		return bad(r, "'%s' is longer than %d bytes or not printable UTF-8", k, MAX_STR);
	*out = xstrdup(v->valuestring);
	return 0;
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

static const char *const entry_keys[] = {
	"subject",    "kind", "event",	  "status", "cost_ns", "cost_ns_lo",
	"cost_ns_hi", "df",   "workload", "method", "why",     "session_id",
};

static int read_entry(struct rd *r, const cJSON *o, struct pcost_cost_table *t)
{
	char *subject = NULL, *kind = NULL, *event = NULL, *status = NULL, *wl = NULL, *how = NULL;
	char *why = NULL;
	enum pcost_cost_event ev;
	enum pcost_cost_status st;
	struct pcost_cost_entry *e;
	double ns, lo, hi, df, sid;
	int rc;

	if (!cJSON_IsObject(o))
		return bad(r, "an entry must be an object");
	if ((rc = known(r, o, entry_keys, ARRAY_SIZE(entry_keys))) ||
	    (rc = str(r, o, "subject", false, &subject)) ||
	    (rc = str(r, o, "kind", false, &kind)) || (rc = str(r, o, "event", false, &event)) ||
	    (rc = str(r, o, "status", false, &status)) || (rc = str(r, o, "workload", true, &wl)) ||
	    (rc = str(r, o, "method", true, &how)) || (rc = str(r, o, "why", true, &why)) ||
	    (rc = num(r, o, "cost_ns", -1e15, 1e15, true, &ns)) ||
	    (rc = num(r, o, "cost_ns_lo", -1e15, 1e15, true, &lo)) ||
	    (rc = num(r, o, "cost_ns_hi", -1e15, 1e15, true, &hi)) ||
	    (rc = num(r, o, "df", 0, 1e9, true, &df)) ||
	    (rc = num(r, o, "session_id", 1, 9007199254740992.0, true, &sid)))
		goto out;
	if (pcost_cost_event_parse(event, &ev) || pcost_cost_status_parse(status, &st)) {
		rc = bad(r, "unknown event '%.32s' or status '%.32s'", event, status);
		goto out;
	}
	if (isfinite(lo) && isfinite(hi) && lo > hi) {
		rc = bad(r, "cost_ns_lo is above cost_ns_hi");
		goto out;
	}
	if ((st == PCOST_COST_MEASURED || st == PCOST_COST_DERIVED) != isfinite(ns)) {
		rc = bad(r, "a %s entry %s a cost_ns", status,
			 isfinite(ns) ? "cannot have" : "must have");
		goto out;
	}
	e = pcost_cost_add(t, subject, kind, ev, wl, how);
	e->status = st;
	e->ns = ns;
	e->lo = lo;
	e->hi = hi;
	e->df = df;
	e->why = why;
	why = NULL;
	e->session_id = isfinite(sid) ? (int64_t)sid : 0;
out:
	free(subject);
	free(kind);
	free(event);
	free(status);
	free(wl);
	free(how);
	free(why);
	return rc;
}

static const char *const table_keys[] = {
	"format", "format_version", "id",	"created", "level",   "version", "host", "kernel",
	"cpu",	  "seconds",	    "complete", "env",	   "entries",
};

static int read_table(struct rd *r, const cJSON *o, struct pcost_cost_table *t)
{
	const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(o, "format");
	const cJSON *env = cJSON_GetObjectItemCaseSensitive(o, "env");
	const cJSON *entries = cJSON_GetObjectItemCaseSensitive(o, "entries"), *x;
	const cJSON *complete = cJSON_GetObjectItemCaseSensitive(o, "complete");
	double ver, created, id;
	int rc, k = 0;

	if (!cJSON_IsObject(o))
		return bad(r, "a cost table must be an object");
	if ((rc = known(r, o, table_keys, ARRAY_SIZE(table_keys))))
		return rc;
	if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, FORMAT_NAME))
		return bad(r, "'format' must be \"%s\"", FORMAT_NAME);
	if ((rc = num(r, o, "format_version", 1, FORMAT_VERSION, false, &ver)) ||
	    (rc = num(r, o, "id", 0, 9007199254740992.0, true, &id)) ||
	    (rc = num(r, o, "created", 0, 1e12, false, &created)) ||
	    (rc = str(r, o, "level", false, &t->level)) ||
	    (rc = str(r, o, "version", true, &t->version)) ||
	    (rc = str(r, o, "host", true, &t->host)) ||
	    (rc = str(r, o, "kernel", true, &t->kernel)) ||
	    (rc = str(r, o, "cpu", true, &t->cpu)) ||
	    (rc = num(r, o, "seconds", 0, 1e9, true, &t->seconds)))
		return rc;
	t->created = (int64_t)created;
	t->id = isfinite(id) ? (int64_t)id : 0;
	if (!cJSON_IsBool(complete))
		return bad(r, "'complete' must be true or false");
	t->complete = cJSON_IsTrue(complete);
	if (env && !cJSON_IsNull(env)) {
		if (!cJSON_IsObject(env))
			return bad(r, "'env' must be an object");
		t->env_json = cJSON_PrintUnformatted(env);
		if (strlen(t->env_json) > MAX_ENV)
			return bad(r, "'env' is larger than %u bytes", MAX_ENV);
	}
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
