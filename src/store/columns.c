// SPDX-License-Identifier: MIT
/*
 * columns: the stored tables, one description each (columns.h), and the
 * conversions every backend shares: a C field to a value and back, and the
 * INSERT and SELECT text of a table.
 */
#include "store/columns.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/costs.h"
#include "core/result.h"
#include "core/util.h"
#include "store/store.h"

/* 2^53: the largest integer a JSON number (an IEEE double) holds exactly. */
#define EXACT PCOST_MAX_EXACT_INT

/* ---- hooks: the columns a plain field does not hold ------------------------------- */

static void text_val(struct pcost_val *v, const char *s)
{
	v->t = s ? PCOST_VAL_TEXT : PCOST_VAL_NULL;
	v->s = s;
}

static void int_val(struct pcost_val *v, int64_t i)
{
	v->t = PCOST_VAL_INT;
	v->i = i;
	v->r = (double)i;
}

static void kind_get(const void *rec, struct pcost_val *v)
{
	text_val(v, pcost_session_kind_name(((const struct pcost_session *)rec)->kind));
}

static int kind_set(void *rec, const struct pcost_val *v)
{
	return pcost_session_kind_parse(v->s, &((struct pcost_session *)rec)->kind);
}

/* When the row was written (unix seconds): an import's time, not the session's. */
static void now_get(const void *rec, struct pcost_val *v)
{
	int_val(v, (int64_t)time(NULL));
}

/* The kernel release of the fingerprint, for history --kernel. */
static void kernel_get(const void *rec, struct pcost_val *v)
{
	v->own = pcost_env_json_kernel(((const struct pcost_session *)rec)->env_json);
	text_val(v, v->own);
}

/* NULL where not recorded (or not said); a word this probecost does not know: not recorded. */
static void fault_get(const void *rec, struct pcost_val *v)
{
	text_val(v, pcost_fault_name(((const struct pcost_run_sample *)rec)->fault));
}

static int fault_set(void *rec, const struct pcost_val *v)
{
	struct pcost_run_sample *x = rec;

	if (v->t != PCOST_VAL_NULL && !pcost_fault_parse(v->s, &x->fault))
		return 0;
	x->fault = PCOST_FAULT_UNKNOWN;
	return v->t == PCOST_VAL_NULL ? 0 : -1;
}

/* A figure's direction: 1 higher is better, -1 lower, 0 not known; JSON says it in words. */
static void better_get_json(const void *rec, struct pcost_val *v)
{
	int b = ((const struct pcost_session_metric *)rec)->better;

	text_val(v, b > 0 ? "higher" : b < 0 ? "lower" : NULL);
}

static int better_set_json(void *rec, const struct pcost_val *v)
{
	int *b = &((struct pcost_session_metric *)rec)->better;

	*b = 0;
	if (v->t == PCOST_VAL_NULL)
		return 0;
	if (!strcmp(v->s, "higher"))
		*b = 1;
	else if (!strcmp(v->s, "lower"))
		*b = -1;
	else
		return -1;
	return 0;
}

static void event_get(const void *rec, struct pcost_val *v)
{
	text_val(v, pcost_cost_event_name(((const struct pcost_cost_entry *)rec)->event));
}

static int event_set(void *rec, const struct pcost_val *v)
{
	return pcost_cost_event_parse(v->s, &((struct pcost_cost_entry *)rec)->event);
}

static void status_get(const void *rec, struct pcost_val *v)
{
	text_val(v, pcost_cost_status_name(((const struct pcost_cost_entry *)rec)->status));
}

static int status_set(void *rec, const struct pcost_val *v)
{
	return pcost_cost_status_parse(v->s, &((struct pcost_cost_entry *)rec)->status);
}

static const struct pcost_col_hook kind_hook = { .get = kind_get, .set = kind_set };
static const struct pcost_col_hook now_hook = { .get = now_get };
static const struct pcost_col_hook kernel_hook = { .get = kernel_get };
static const struct pcost_col_hook fault_hook = { .get = fault_get, .set = fault_set };
static const struct pcost_col_hook better_hook = { .get_json = better_get_json,
						   .set_json = better_set_json };
static const struct pcost_col_hook event_hook = { .get = event_get, .set = event_set };
static const struct pcost_col_hook status_hook = { .get = status_get, .set = status_set };

/* ---- the tables ------------------------------------------------------------------- */

/* A column of struct S's field F: SQL name, JSON key, SQL type, how C holds it. */
#define COL(S, F, SQL, KEY, TYPE, C)                                                               \
	.sql = (SQL), .json = (KEY), .type = PCOST_SQL_##TYPE, .c = PCOST_C_##C,                   \
	.off = offsetof(S, F), .size = sizeof(((S *)0)->F)
/* One named as its field, in SQL and in JSON. */
#define FIELD(S, F, TYPE, C) COL(S, F, #F, #F, TYPE, C)
/* A column no field holds (a hook makes it). */
#define HOOKED(SQL, KEY, TYPE, H)                                                                  \
	.sql = (SQL), .json = (KEY), .type = PCOST_SQL_##TYPE, .c = PCOST_C_HOOK, .hook = &(H)
#define NN PCOST_COL_NOT_NULL
#define OPT PCOST_COL_JSON_OPT
#define STRICT PCOST_COL_JSON_STRICT
#define HAS(S, F) .has = offsetof(S, F) + 1
#define RANGE(a, b) .lo = (a), .hi = (b)
#define LEN(n) .hi = (n)

#define TABLE(var, sql, k, nk, cols)                                                               \
	const struct pcost_table var = {                                                           \
		.name = (sql), .keys = (k), .nkeys = (nk), .col = (cols), .n = ARRAY_SIZE(cols)    \
	}

#define S struct pcost_session
static const struct pcost_column session_cols[] = {
	{ FIELD(S, id, BIGINT, INT), .flags = NN | PCOST_COL_ROWID, RANGE(0, EXACT) },
	{ HOOKED("kind", "kind", TEXT, kind_hook), .flags = NN | STRICT,
	  .bad = "not \"run\", \"probes\" or \"counters\"" },
	/* unix seconds from 1970 to 9999-12-31 */
	{ FIELD(S, started, BIGINT, INT), .flags = NN, RANGE(0, 253402300799.0) },
	{ FIELD(S, cmdline, TEXT, TEXT), LEN(PCOST_MAX_ARGV_LEN) },
	{ FIELD(S, version, TEXT, TEXT), LEN(PCOST_MAX_NAME_LEN) },
	{ FIELD(S, seed, BIGINT, UINT), .form = PCOST_JSON_DECIMAL, .flags = NN },
	/* TSC frequencies are a few GHz; 0 means unknown. */
	{ FIELD(S, tsc_hz, REAL, REAL), .flags = NN, RANGE(0, 1e11) },
	{ FIELD(S, complete, BOOL, BOOL), .flags = NN },
	{ COL(S, env_json, "env_json", "env", TEXT, TEXT), .form = PCOST_JSON_OBJECT },
	{ COL(S, options_json, "options_json", "options", TEXT, TEXT), .form = PCOST_JSON_OBJECT },
	{ HOOKED("stored", NULL, BIGINT, now_hook), .flags = NN | PCOST_COL_WRITE_ONLY },
	{ HOOKED("kernel", NULL, TEXT, kernel_hook), .flags = PCOST_COL_WRITE_ONLY },
};
TABLE(pcost_session_cols, "session", "", 0, session_cols);
#undef S

#define S struct pcost_config
static const struct pcost_column config_cols[] = {
	{ FIELD(S, workload, TEXT, TEXT), .flags = STRICT, LEN(PCOST_MAX_NAME_LEN) },
	{ FIELD(S, workload_args, TEXT, TEXT), LEN(PCOST_MAX_ARGV_LEN) },
	{ FIELD(S, monitor, TEXT, TEXT), .flags = STRICT, LEN(PCOST_MAX_NAME_LEN) },
	{ FIELD(S, variant, TEXT, TEXT), LEN(PCOST_MAX_NAME_LEN) },
	{ FIELD(S, unit, TEXT, TEXT), LEN(PCOST_MAX_NAME_LEN) },
	{ FIELD(S, expected_events, BIGINT, INT), .flags = NN, RANGE(-1, EXACT) },
	/* run --threads and --placement: 0 and NULL (absent from JSON) where not varied */
	{ FIELD(S, threads, BIGINT, UINT), .flags = NN | OPT | PCOST_COL_JSON_ZERO,
	  RANGE(0, 1 << 20) },
	{ FIELD(S, placement, TEXT, TEXT), .flags = OPT, LEN(PCOST_MAX_NAME_LEN) },
};
TABLE(pcost_config_cols, "config", "session_id, idx", 2, config_cols);
#undef S

#define S struct pcost_run_sample
/* nanoseconds, counts: never negative, exact in JSON */
#define NS(F)                                                                                      \
	{                                                                                          \
		FIELD(S, F, BIGINT, UINT), .flags = NN, RANGE(0, EXACT)                            \
	}
#define COUNT(F)                                                                                   \
	{                                                                                          \
		FIELD(S, F, BIGINT, INT), .flags = NN, RANGE(0, EXACT)                             \
	}
static const struct pcost_column sample_cols[] = {
	{ FIELD(S, block, BIGINT, UINT), .flags = NN, RANGE(0, UINT32_MAX) },
	{ COL(S, order, "ord", "order", BIGINT, UINT), .flags = NN, RANGE(0, UINT32_MAX) },
	{ FIELD(S, warmup, BOOL, BOOL), .flags = NN },
	{ FIELD(S, failed, BOOL, BOOL), .flags = NN },
	{ FIELD(S, wait_status, INT, INT), .flags = NN, RANGE(-1, INT_MAX) },
	{ FIELD(S, fail_reason, TEXT, CHARS), .flags = NN | STRICT },
	/* --scale multiples are small positive numbers; 1e6 is already absurd. */
	{ FIELD(S, scale, REAL, REAL), .flags = NN, RANGE(1e-9, 1e6) },
	NS(wall_ns),
	NS(user_ns),
	NS(sys_ns),
	COUNT(maxrss_kb),
	COUNT(minflt),
	COUNT(majflt),
	COUNT(nvcsw),
	COUNT(nivcsw),
	{ FIELD(S, has_report, BOOL, BOOL), .flags = NN },
	NS(events),
	NS(timed_ns),
	{ FIELD(S, monitor_events, BIGINT, INT), .flags = NN, RANGE(-1, EXACT) },
	/* how busy the machine was: both or neither (NULL, null: not recorded) */
	{ FIELD(S, other_cpu_ns, BIGINT, UINT), HAS(S, has_busy), RANGE(0, EXACT) },
	{ FIELD(S, steal_ns, BIGINT, UINT), HAS(S, has_busy), RANGE(0, EXACT) },
	/* probes: did the kernel optimize the run's uprobe (NULL, absent: unknown) */
	{ FIELD(S, optimized, BOOL, TRI), .flags = OPT },
	/* how the run ended (stats/outcome.h); each NULL, absent: not recorded or not said */
	{ FIELD(S, fault, TEXT, HOOK), .hook = &fault_hook, .flags = OPT,
	  .bad = "not \"none\", \"program\" or \"tool\"" },
	{ COL(S, check, "self_check", "check", BOOL, TRI), .flags = OPT },
	{ FIELD(S, note, TEXT, CHARS), .flags = OPT | PCOST_COL_EMPTY_NULL },
	/* run --service: its CPU time during the run; both or neither (NULL, absent: none) */
	{ FIELD(S, service_user_ns, BIGINT, UINT), HAS(S, has_service), .flags = OPT,
	  RANGE(0, EXACT) },
	{ FIELD(S, service_sys_ns, BIGINT, UINT), HAS(S, has_service), .flags = OPT,
	  RANGE(0, EXACT) },
};
TABLE(pcost_sample_cols, "run_sample", "session_id, config_idx, seq", 3, sample_cols);
#undef NS
#undef COUNT
#undef S

#define S struct pcost_counter_series
static const struct pcost_column series_cols[] = {
	{ FIELD(S, interface, TEXT, TEXT), .flags = STRICT, LEN(PCOST_MAX_NAME_LEN) },
	{ FIELD(S, op, TEXT, TEXT), .flags = STRICT, LEN(PCOST_MAX_NAME_LEN) },
	{ FIELD(S, events, TEXT, TEXT), LEN(PCOST_MAX_TEXT_LEN) },
	{ FIELD(S, nevents, BIGINT, UINT), .flags = NN, RANGE(0, 65536) },
	{ FIELD(S, timer, TEXT, TEXT), LEN(PCOST_MAX_NAME_LEN) },
	{ FIELD(S, note, TEXT, TEXT), LEN(PCOST_MAX_TEXT_LEN) },
};
TABLE(pcost_series_cols, "series", "session_id, idx", 2, series_cols);
#undef S

#define S struct pcost_session_metric
static const struct pcost_column metric_cols[] = {
	/* a --metric name: [A-Za-z][A-Za-z0-9_]*, under 48 bytes (session_json.c checks) */
	{ FIELD(S, name, TEXT, TEXT), .flags = NN | STRICT, LEN(48) },
	{ FIELD(S, unit, TEXT, TEXT), .flags = NN | STRICT, LEN(16) },
	{ FIELD(S, better, INT, INT), .flags = NN, .form = PCOST_JSON_HOOK, .hook = &better_hook,
	  .bad = "not \"higher\", \"lower\" or null" },
};
TABLE(pcost_metric_cols, "metric", "session_id, idx", 2, metric_cols);
#undef S

#define S struct pcost_cost_table
static const struct pcost_column cost_table_cols[] = {
	{ FIELD(S, id, BIGINT, INT), .flags = NN | PCOST_COL_ROWID, RANGE(0, EXACT) },
	{ FIELD(S, created, BIGINT, INT), .flags = NN, RANGE(0, 1e12) },
	{ FIELD(S, level, TEXT, TEXT), .flags = NN | STRICT, .dflt = "custom",
	  LEN(PCOST_MAX_COST_TEXT) },
	{ FIELD(S, version, TEXT, TEXT), LEN(PCOST_MAX_COST_TEXT) },
	{ FIELD(S, host, TEXT, TEXT), LEN(PCOST_MAX_COST_TEXT) },
	{ FIELD(S, kernel, TEXT, TEXT), LEN(PCOST_MAX_COST_TEXT) },
	{ FIELD(S, cpu, TEXT, TEXT), LEN(PCOST_MAX_COST_TEXT) },
	/* how long calibrating took; NULL, null: not measured */
	{ FIELD(S, seconds, REAL, REAL), .flags = PCOST_COL_NAN_NULL, RANGE(0, 1e9) },
	{ FIELD(S, complete, BOOL, BOOL), .flags = NN },
	{ COL(S, env_json, "env_json", "env", TEXT, TEXT), .form = PCOST_JSON_OBJECT },
	{ HOOKED("stored", NULL, BIGINT, now_hook), .flags = NN | PCOST_COL_WRITE_ONLY },
};
TABLE(pcost_cost_table_cols, "cost_table", "", 0, cost_table_cols);
#undef S

#define S struct pcost_cost_entry
#define COST(F, SQL, KEY, LO, HI)                                                                  \
	{                                                                                          \
		COL(S, F, SQL, KEY, REAL, REAL), .flags = PCOST_COL_NAN_NULL, RANGE(LO, HI)        \
	}
static const struct pcost_column cost_entry_cols[] = {
	{ FIELD(S, subject, TEXT, TEXT), .flags = NN | STRICT, .dflt = "",
	  LEN(PCOST_MAX_COST_TEXT) },
	{ FIELD(S, kind, TEXT, TEXT), .flags = NN | STRICT, .dflt = "monitor",
	  LEN(PCOST_MAX_COST_TEXT) },
	{ FIELD(S, event, TEXT, HOOK), .hook = &event_hook, .flags = NN | STRICT,
	  LEN(PCOST_MAX_COST_TEXT) },
	{ FIELD(S, status, TEXT, HOOK), .hook = &status_hook, .flags = NN | STRICT,
	  LEN(PCOST_MAX_COST_TEXT) },
	/* per event, with its 95% interval; NULL, null: not measured */
	COST(ns, "ns", "cost_ns", -1e15, 1e15),
	COST(lo, "lo", "cost_ns_lo", -1e15, 1e15),
	COST(hi, "hi", "cost_ns_hi", -1e15, 1e15),
	COST(df, "df", "df", 0, 1e9),
	{ FIELD(S, workload, TEXT, TEXT), LEN(PCOST_MAX_COST_TEXT) },
	{ FIELD(S, method, TEXT, TEXT), LEN(PCOST_MAX_COST_TEXT) },
	{ FIELD(S, why, TEXT, TEXT), LEN(PCOST_MAX_COST_TEXT) },
	/* the stored session it came from; NULL, null: none */
	{ FIELD(S, session_id, BIGINT, INT), .flags = PCOST_COL_ZERO_NULL, RANGE(1, EXACT) },
	/* "unpinned" or "cpu=LIST"; absent from an older file: the table's cpu says */
	{ FIELD(S, placement, TEXT, TEXT), .flags = OPT, LEN(PCOST_MAX_COST_TEXT) },
};
TABLE(pcost_cost_entry_cols, "cost_entry", "table_id, idx", 2, cost_entry_cols);
#undef COST
#undef S

/* ---- values ----------------------------------------------------------------------- */

static const void *field(const struct pcost_column *c, const void *rec)
{
	return (const char *)rec + c->off;
}

static int64_t get_signed(const void *p, size_t size)
{
	switch (size) {
	case 1:
		return *(const int8_t *)p;
	case 2:
		return *(const int16_t *)p;
	case 4:
		return *(const int32_t *)p;
	default:
		return *(const int64_t *)p;
	}
}

static uint64_t get_unsigned(const void *p, size_t size)
{
	switch (size) {
	case 1:
		return *(const uint8_t *)p;
	case 2:
		return *(const uint16_t *)p;
	case 4:
		return *(const uint32_t *)p;
	default:
		return *(const uint64_t *)p;
	}
}

/* Store the low size bytes of x (two's complement: signed and unsigned alike). */
static void put_int(void *p, size_t size, uint64_t x)
{
	switch (size) {
	case 1:
		*(uint8_t *)p = (uint8_t)x;
		break;
	case 2:
		*(uint16_t *)p = (uint16_t)x;
		break;
	case 4:
		*(uint32_t *)p = (uint32_t)x;
		break;
	default:
		*(uint64_t *)p = x;
	}
}

void pcost_col_get(const struct pcost_column *c, const void *rec, struct pcost_val *v)
{
	const void *p = field(c, rec);

	memset(v, 0, sizeof(*v));
	if (c->has && !*(const bool *)((const char *)rec + c->has - 1))
		return;
	switch (c->c) {
	case PCOST_C_TEXT:
		text_val(v, *(char *const *)p);
		if (!v->s && c->dflt)
			text_val(v, c->dflt);
		break;
	case PCOST_C_CHARS: {
		size_t n = strnlen(p, c->size);

		if (n == 0 && (c->flags & PCOST_COL_EMPTY_NULL))
			break;
		if (n < c->size) {
			text_val(v, p);
		} else { /* full to the last byte: no NUL of its own */
			v->own = xmalloc(n + 1);
			memcpy(v->own, p, n);
			v->own[n] = '\0';
			text_val(v, v->own);
		}
		break;
	}
	case PCOST_C_BOOL:
		int_val(v, *(const bool *)p);
		break;
	case PCOST_C_INT:
		int_val(v, get_signed(p, c->size));
		break;
	case PCOST_C_UINT: {
		uint64_t u = get_unsigned(p, c->size);

		int_val(v, (int64_t)u); /* the bit pattern: SQL's int64 keeps every bit */
		v->r = (double)u;
		break;
	}
	case PCOST_C_REAL:
		v->t = PCOST_VAL_REAL;
		v->r = *(const double *)p;
		if ((c->flags & PCOST_COL_NAN_NULL) && !isfinite(v->r))
			v->t = PCOST_VAL_NULL;
		break;
	case PCOST_C_TRI: {
		int8_t x = *(const int8_t *)p;

		if (x)
			int_val(v, x > 0);
		break;
	}
	case PCOST_C_HOOK:
		c->hook->get(rec, v);
		break;
	}
	if (v->t == PCOST_VAL_INT && !v->i && (c->flags & PCOST_COL_ZERO_NULL))
		v->t = PCOST_VAL_NULL;
}

int pcost_col_set(const struct pcost_column *c, void *rec, const struct pcost_val *v)
{
	void *p = (char *)rec + c->off;
	bool null = v->t == PCOST_VAL_NULL;
	int64_t i = v->t == PCOST_VAL_REAL ? (int64_t)v->r : v->i;

	if (c->has && !null)
		*(bool *)((char *)rec + c->has - 1) = true;
	switch (c->c) {
	case PCOST_C_TEXT:
		free(*(char **)p);
		*(char **)p = null ? NULL : xstrdup(v->s);
		break;
	case PCOST_C_CHARS:
		snprintf(p, c->size, "%s", null ? "" : v->s);
		break;
	case PCOST_C_BOOL:
		*(bool *)p = !null && i;
		break;
	case PCOST_C_INT:
	case PCOST_C_UINT:
		put_int(p, c->size, null ? 0 : (uint64_t)i);
		break;
	case PCOST_C_REAL:
		*(double *)p = null ? ((c->flags & PCOST_COL_NAN_NULL) ? NAN : 0)
			       : v->t == PCOST_VAL_REAL ? v->r
							: (double)v->i;
		break;
	case PCOST_C_TRI:
		*(int8_t *)p = null ? 0 : i ? 1 : -1;
		break;
	case PCOST_C_HOOK:
		return c->hook->set ? c->hook->set(rec, v) : 0;
	}
	return 0;
}

void pcost_col_get_json(const struct pcost_column *c, const void *rec, struct pcost_val *v)
{
	if (c->form == PCOST_JSON_HOOK) {
		memset(v, 0, sizeof(*v));
		c->hook->get_json(rec, v);
	} else {
		pcost_col_get(c, rec, v);
	}
}

int pcost_col_set_json(const struct pcost_column *c, void *rec, const struct pcost_val *v)
{
	return c->form == PCOST_JSON_HOOK ? c->hook->set_json(rec, v) : pcost_col_set(c, rec, v);
}

void pcost_val_release(struct pcost_val *v)
{
	free(v->own);
	v->own = NULL;
}

/* ---- SQL text --------------------------------------------------------------------- */

bool pcost_col_inserted(const struct pcost_column *c, bool with_rowid)
{
	return c->sql && (with_rowid || !(c->flags & PCOST_COL_ROWID));
}

bool pcost_col_selected(const struct pcost_column *c)
{
	return c->sql && !(c->flags & (PCOST_COL_ROWID | PCOST_COL_WRITE_ONLY));
}

/* Append s to the growing text *b (length *len, capacity *cap). */
static void put(char **b, size_t *len, size_t *cap, const char *s)
{
	size_t n = strlen(s);

	xgrow((void **)b, cap, *len + n + 1, 1);
	memcpy(*b + *len, s, n + 1);
	*len += n;
}

char *pcost_sql_insert(const struct pcost_table *t, const char *verb, bool dollar, bool rowid,
		       const char *extra, size_t nextra)
{
	char *b = NULL, num[16];
	size_t len = 0, cap = 0, n = t->nkeys + nextra;
	bool first = !t->nkeys;

	put(&b, &len, &cap, verb);
	put(&b, &len, &cap, " INTO ");
	put(&b, &len, &cap, t->name);
	put(&b, &len, &cap, " (");
	put(&b, &len, &cap, t->keys);
	pcost_for_each_col(c, t) {
		if (!pcost_col_inserted(c, rowid))
			continue;
		put(&b, &len, &cap, first ? "" : ", ");
		put(&b, &len, &cap, c->sql);
		first = false;
		n++;
	}
	if (nextra) {
		put(&b, &len, &cap, ", ");
		put(&b, &len, &cap, extra);
	}
	put(&b, &len, &cap, ") VALUES (");
	for (size_t k = 1; k <= n; k++) {
		if (dollar)
			snprintf(num, sizeof(num), "%s$%zu", k > 1 ? "," : "", k);
		else
			snprintf(num, sizeof(num), "%s?", k > 1 ? "," : "");
		put(&b, &len, &cap, num);
	}
	put(&b, &len, &cap, ")");
	return b;
}

char *pcost_sql_select(const struct pcost_table *t, const char *lead, const char *tail)
{
	char *b = NULL;
	size_t len = 0, cap = 0;
	bool first = !lead;

	put(&b, &len, &cap, "SELECT ");
	if (lead)
		put(&b, &len, &cap, lead);
	pcost_for_each_col(c, t) {
		if (!pcost_col_selected(c))
			continue;
		put(&b, &len, &cap, first ? "" : ", ");
		put(&b, &len, &cap, c->sql);
		first = false;
	}
	put(&b, &len, &cap, tail);
	return b;
}

size_t pcost_sql_nselected(const struct pcost_table *t)
{
	size_t n = 0;

	pcost_for_each_col(c, t) {
		n += pcost_col_selected(c);
	}
	return n;
}

int pcost_sql_position(const struct pcost_table *t, const char *sql)
{
	int k = 0;

	pcost_for_each_col(c, t) {
		if (!pcost_col_selected(c))
			continue;
		if (!strcmp(c->sql, sql))
			return k;
		k++;
	}
	return -1;
}

const char *pcost_sql_type_name(const struct pcost_column *c, bool pg)
{
	switch (c->type) {
	case PCOST_SQL_BIGINT:
		return pg ? "bigint" : "INTEGER";
	case PCOST_SQL_INT:
		return pg ? "integer" : "INTEGER";
	case PCOST_SQL_BOOL:
		return pg ? "boolean" : "INTEGER";
	case PCOST_SQL_REAL:
		return pg ? "double precision" : "REAL";
	case PCOST_SQL_TEXT:
		break;
	}
	return pg ? "text" : "TEXT";
}
