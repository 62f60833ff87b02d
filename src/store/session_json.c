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

#define FORMAT_NAME "probecost-session"
#define FORMAT_VERSION 1

/* 2^53: the largest integer a JSON number (an IEEE double) holds exactly. */
#define MAX_EXACT_INT 9007199254740992.0

/* Caps against hostile input; each far above anything probecost measures. */
#define MAX_NAME_LEN 256	/* workload, monitor, unit, interface... */
#define MAX_TEXT_LEN 65536	/* events, note */
#define MAX_ARGV_LEN (8u << 20) /* cmdline, workload_args: a whole argv, quoted */
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

static cJSON *sample_to_json(const struct pcost_session *s, const struct pcost_run_sample *r)
{
	cJSON *o = cJSON_CreateObject();

	add_num(o, "block", r->block);
	add_num(o, "order", r->order);
	cJSON_AddBoolToObject(o, "warmup", r->warmup);
	cJSON_AddBoolToObject(o, "failed", r->failed);
	add_num(o, "wait_status", r->wait_status);
	add_str(o, "fail_reason", r->fail_reason);
	add_num(o, "scale", r->scale);
	add_num(o, "wall_ns", (double)r->wall_ns);
	add_num(o, "user_ns", (double)r->user_ns);
	add_num(o, "sys_ns", (double)r->sys_ns);
	add_num(o, "maxrss_kb", (double)r->maxrss_kb);
	add_num(o, "minflt", (double)r->minflt);
	add_num(o, "majflt", (double)r->majflt);
	add_num(o, "nvcsw", (double)r->nvcsw);
	add_num(o, "nivcsw", (double)r->nivcsw);
	cJSON_AddBoolToObject(o, "has_report", r->has_report);
	add_num(o, "events", (double)r->events);
	add_num(o, "timed_ns", (double)r->timed_ns);
	add_num(o, "monitor_events", (double)r->monitor_events);
	if (r->has_busy) {
		add_num(o, "other_cpu_ns", (double)r->other_cpu_ns);
		add_num(o, "steal_ns", (double)r->steal_ns);
	} else {
		cJSON_AddNullToObject(o, "other_cpu_ns");
		cJSON_AddNullToObject(o, "steal_ns");
	}
	/* probes: whether the kernel optimized the run's uprobe; absent when unknown. */
	if (r->optimized)
		cJSON_AddBoolToObject(o, "optimized", r->optimized > 0);
	/* How it ended (stats/outcome.h); each absent when not recorded or not said. */
	if (pcost_fault_name(r->fault))
		add_str(o, "fault", pcost_fault_name(r->fault));
	if (r->check)
		cJSON_AddBoolToObject(o, "check", r->check > 0);
	if (r->note[0])
		add_str(o, "note", r->note);
	/* run --service: its CPU time during the run; absent without one. */
	if (r->has_service) {
		add_num(o, "service_user_ns", (double)r->service_user_ns);
		add_num(o, "service_sys_ns", (double)r->service_sys_ns);
	}
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
		int b = s->metrics[k].better;

		add_str(o, "name", s->metrics[k].name);
		add_str(o, "unit", s->metrics[k].unit);
		cJSON_AddItemToObject(o, "better",
				      b ? cJSON_CreateString(b > 0 ? "higher" : "lower")
					: cJSON_CreateNull());
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

cJSON *pcost_session_to_json(const struct pcost_session *s)
{
	cJSON *o = cJSON_CreateObject(), *configs, *series;
	char seed[24];

	cJSON_AddStringToObject(o, "format", FORMAT_NAME);
	add_num(o, "format_version", FORMAT_VERSION);
	add_num(o, "id", (double)s->id);
	cJSON_AddStringToObject(o, "kind", pcost_session_kind_name(s->kind));
	add_num(o, "started", (double)s->started);
	add_str(o, "cmdline", s->cmdline);
	add_str(o, "version", s->version);
	/* A string: a 64-bit seed does not survive a double. */
	snprintf(seed, sizeof(seed), "%" PRIu64, s->seed);
	cJSON_AddStringToObject(o, "seed", seed);
	add_num(o, "tsc_hz", s->tsc_hz);
	cJSON_AddBoolToObject(o, "complete", s->complete);
	add_json_text(o, "env", s->env_json);
	add_json_text(o, "options", s->options_json);
	if (s->nmetrics)
		cJSON_AddItemToObject(o, "metrics", metrics_to_json(s));

	configs = cJSON_AddArrayToObject(o, "configs");
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct pcost_config *c = &s->configs[i];
		cJSON *co = cJSON_CreateObject(), *samples;

		add_str(co, "workload", c->workload);
		add_str(co, "workload_args", c->workload_args);
		add_str(co, "monitor", c->monitor);
		add_str(co, "variant", c->variant);
		add_str(co, "unit", c->unit);
		add_num(co, "expected_events", (double)c->expected_events);
		if (c->threads)
			add_num(co, "threads", c->threads);
		if (c->placement)
			add_str(co, "placement", c->placement);
		samples = cJSON_AddArrayToObject(co, "samples");
		for (size_t j = 0; j < c->nsamples; j++)
			cJSON_AddItemToArray(samples, sample_to_json(s, &c->samples[j]));
		cJSON_AddItemToArray(configs, co);
	}

	series = cJSON_AddArrayToObject(o, "series");
	for (size_t i = 0; i < s->nseries; i++) {
		const struct pcost_counter_series *c = &s->series[i];
		cJSON *so = cJSON_CreateObject(), *ns;

		add_str(so, "interface", c->interface);
		add_str(so, "op", c->op);
		add_str(so, "events", c->events);
		add_num(so, "nevents", c->nevents);
		add_str(so, "timer", c->timer);
		add_str(so, "note", c->note);
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

static int check_members(struct reader *r, const cJSON *o, const char *const *known, size_t n)
{
	return check_members_opt(r, o, known, n, n);
}

/* Printable UTF-8 (no control characters), shorter than max bytes. */
static bool text_ok(const char *s, size_t max)
{
	return strlen(s) < max && pcost_text_printable(s);
}

/* *out = copy of o.key (NULL when null and nullable). */
static int get_str(struct reader *r, const cJSON *o, const char *key, size_t max, bool nullable,
		   char **out)
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
	*out = xstrdup(v->valuestring);
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
	if (strlen(*out) > 16 * MAX_TEXT_LEN)
		return fail(r, key, "larger than %d bytes", 16 * MAX_TEXT_LEN);
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

static const char *const sample_keys[] = {
	"block",
	"order",
	"warmup",
	"failed",
	"wait_status",
	"fail_reason",
	"scale",
	"wall_ns",
	"user_ns",
	"sys_ns",
	"maxrss_kb",
	"minflt",
	"majflt",
	"nvcsw",
	"nivcsw",
	"has_report",
	"events",
	"timed_ns",
	"monitor_events",
	/* optional: null or absent when not recorded (older exports have none of them) */
	"other_cpu_ns",
	"steal_ns",
	"optimized",
	"fault",
	"check",
	"note",
	"service_user_ns",
	"service_sys_ns",
	"metrics",
};
#define SAMPLE_REQUIRED 19
_Static_assert(ARRAY_SIZE(sample_keys) == SAMPLE_REQUIRED + 9, "nine optional sample keys");

/*
 * How the run ended: fault "none", "program" or "tool", check true or false,
 * note a string; each null or absent when not recorded (an older export: the
 * outcome is then derived from what the run has, stats/outcome.h).
 */
static int read_ending(struct reader *r, const cJSON *o, struct pcost_run_sample *x)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, "fault");
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(o, "check");
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, "note");
	bool b = false;
	int rc;

	if (f && !cJSON_IsNull(f) &&
	    (!cJSON_IsString(f) || pcost_fault_parse(f->valuestring, &x->fault)))
		return fail(r, "fault", "not \"none\", \"program\" or \"tool\"");
	if (c && !cJSON_IsNull(c)) {
		if ((rc = get_bool(r, o, "check", &b)))
			return rc;
		x->check = b ? 1 : -1;
	}
	if (n && !cJSON_IsNull(n)) {
		if (!cJSON_IsString(n) || !text_ok(n->valuestring, sizeof(x->note)))
			return fail(r, "note", "not a string of at most %zu bytes of UTF-8 text",
				    sizeof(x->note) - 1);
		strcpy(x->note, n->valuestring);
	}
	return 0;
}

/* run --service: service_user_ns and service_sys_ns, both or neither. */
static int read_service(struct reader *r, const cJSON *o, struct pcost_run_sample *x)
{
	double d;
	int rc;

	if (!cJSON_HasObjectItem(o, "service_user_ns") && !cJSON_HasObjectItem(o, "service_sys_ns"))
		return 0;
	if ((rc = get_int(r, o, "service_user_ns", 0, MAX_EXACT_INT, &d)))
		return rc;
	x->service_user_ns = (pcost_ns)d;
	if ((rc = get_int(r, o, "service_sys_ns", 0, MAX_EXACT_INT, &d)))
		return rc;
	x->service_sys_ns = (pcost_ns)d;
	x->has_service = true;
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

/* optimized: true or false; null or absent is unknown (0), never false. */
static int read_optimized(struct reader *r, const cJSON *o, struct pcost_run_sample *x)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "optimized");
	bool b = false;
	int rc;

	if (!v || cJSON_IsNull(v))
		return 0;
	if ((rc = get_bool(r, o, "optimized", &b)))
		return rc;
	x->optimized = b ? 1 : -1;
	return 0;
}

/* other_cpu_ns and steal_ns: both numbers, or both null / absent (not recorded). */
static int read_busy(struct reader *r, const cJSON *o, struct pcost_run_sample *x)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, "other_cpu_ns");
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, "steal_ns");
	double d;
	int rc;

	if ((!a || cJSON_IsNull(a)) && (!b || cJSON_IsNull(b)))
		return 0;
	if ((rc = get_int(r, o, "other_cpu_ns", 0, MAX_EXACT_INT, &d)))
		return rc;
	x->other_cpu_ns = (pcost_ns)d;
	if ((rc = get_int(r, o, "steal_ns", 0, MAX_EXACT_INT, &d)))
		return rc;
	x->steal_ns = (pcost_ns)d;
	x->has_busy = true;
	return 0;
}

static int read_sample(struct reader *r, const cJSON *o, struct pcost_run_sample *out)
{
	struct pcost_run_sample x = { 0 };
	const cJSON *fr;
	double d = 0; /* the analyzer does not follow fail() (variadic) to its -EINVAL */
	int rc;

	if ((rc = check_members_opt(r, o, sample_keys, ARRAY_SIZE(sample_keys), SAMPLE_REQUIRED)))
		return rc;
#define INT_FIELD(name, lo, hi)                                                                    \
	do {                                                                                       \
		if ((rc = get_int(r, o, #name, lo, hi, &d)))                                       \
			return rc;                                                                 \
		x.name = (__typeof__(x.name))d;                                                    \
	} while (0)
	INT_FIELD(block, 0, UINT32_MAX);
	INT_FIELD(order, 0, UINT32_MAX);
	INT_FIELD(wait_status, -1, INT_MAX);
	INT_FIELD(wall_ns, 0, MAX_EXACT_INT);
	INT_FIELD(user_ns, 0, MAX_EXACT_INT);
	INT_FIELD(sys_ns, 0, MAX_EXACT_INT);
	INT_FIELD(maxrss_kb, 0, MAX_EXACT_INT);
	INT_FIELD(minflt, 0, MAX_EXACT_INT);
	INT_FIELD(majflt, 0, MAX_EXACT_INT);
	INT_FIELD(nvcsw, 0, MAX_EXACT_INT);
	INT_FIELD(nivcsw, 0, MAX_EXACT_INT);
	INT_FIELD(events, 0, MAX_EXACT_INT);
	INT_FIELD(timed_ns, 0, MAX_EXACT_INT);
	INT_FIELD(monitor_events, -1, MAX_EXACT_INT);
#undef INT_FIELD
	if ((rc = read_busy(r, o, &x)) || (rc = read_optimized(r, o, &x)) ||
	    (rc = read_ending(r, o, &x)) || (rc = read_service(r, o, &x)))
		return rc;
	if ((rc = get_bool(r, o, "warmup", &x.warmup)) ||
	    (rc = get_bool(r, o, "failed", &x.failed)) ||
	    (rc = get_bool(r, o, "has_report", &x.has_report)))
		return rc;
	/* --scale multiples are small positive numbers; 1e6 is already absurd. */
	if ((rc = get_real(r, o, "scale", 1e-9, 1e6, &x.scale)))
		return rc;
	fr = cJSON_GetObjectItemCaseSensitive(o, "fail_reason");
	if (!cJSON_IsString(fr) || !fr->valuestring)
		return fail(r, "fail_reason", "not a string");
	if (!text_ok(fr->valuestring, sizeof(x.fail_reason)))
		return fail(r, "fail_reason",
			    "longer than %zu bytes, not UTF-8 or has control characters",
			    sizeof(x.fail_reason) - 1);
	strcpy(x.fail_reason, fr->valuestring);
	if ((rc = read_sample_metrics(r, o, &x)))
		return rc;
	*out = x;
	return 0;
}

static const char *const config_keys[] = {
	"workload",
	"workload_args",
	"monitor",
	"variant",
	"unit",
	"expected_events",
	"samples",
	/* optional (run --threads, --placement) */
	"threads",
	"placement",
};
#define CONFIG_KEYS_REQUIRED 7

static int read_config(struct reader *r, const cJSON *o, struct pcost_session *s)
{
	char *wl = NULL, *args = NULL, *mon = NULL, *var = NULL, *unit = NULL, *place = NULL;
	const cJSON *arr, *e;
	struct pcost_config *c;
	size_t n, j = 0;
	double d = 0; /* as in read_sample: the analyzer does not follow fail() */
	int rc;

	double threads = 0;

	if ((rc = check_members_opt(r, o, config_keys, ARRAY_SIZE(config_keys),
				    CONFIG_KEYS_REQUIRED)))
		return rc;
	if ((rc = get_str(r, o, "workload", MAX_NAME_LEN, false, &wl)) ||
	    (rc = get_str(r, o, "workload_args", MAX_ARGV_LEN, true, &args)) ||
	    (rc = get_str(r, o, "monitor", MAX_NAME_LEN, false, &mon)) ||
	    (rc = get_str(r, o, "variant", MAX_NAME_LEN, true, &var)) ||
	    (rc = get_str(r, o, "unit", MAX_NAME_LEN, true, &unit)) ||
	    (rc = get_int(r, o, "expected_events", -1, MAX_EXACT_INT, &d)) ||
	    (cJSON_HasObjectItem(o, "threads") &&
	     (rc = get_int(r, o, "threads", 0, 1 << 20, &threads))) ||
	    (cJSON_HasObjectItem(o, "placement") &&
	     (rc = get_str(r, o, "placement", MAX_NAME_LEN, true, &place))))
		goto out;
	arr = get_array(r, o, "samples", MAX_SAMPLES, &n);
	if (!arr) {
		rc = -EINVAL;
		goto out;
	}
	c = pcost_session_add_config(s, wl, args, mon, var, unit);
	c->expected_events = (int64_t)d;
	c->threads = (uint32_t)threads;
	c->placement = place;
	place = NULL;
	c->samples = xcalloc(n ? n : 1, sizeof(*c->samples));
	c->cap = n ? n : 1;
	cJSON_ArrayForEach(e, arr)
	{
		snprintf(r->where, sizeof(r->where), "configs[%zu].samples[%zu]", r->ci, j++);
		if ((rc = read_sample(r, e, &c->samples[c->nsamples])))
			goto out;
		c->nsamples++;
	}
	snprintf(r->where, sizeof(r->where), "configs[%zu]", r->ci);
out:
	free(wl);
	free(args);
	free(mon);
	free(var);
	free(unit);
	free(place);
	return rc;
}

static const char *const series_keys[] = {
	"interface", "op", "events", "nevents", "timer", "note", "ns",
};

static int read_series(struct reader *r, const cJSON *o, struct pcost_session *s)
{
	char *itf = NULL, *op = NULL, *ev = NULL, *timer = NULL, *note = NULL;
	struct pcost_counter_series *c;
	const cJSON *arr, *e;
	size_t n, j = 0;
	double k = 0;
	int rc;

	if ((rc = check_members(r, o, series_keys, ARRAY_SIZE(series_keys))))
		return rc;
	if ((rc = get_str(r, o, "interface", MAX_NAME_LEN, false, &itf)) ||
	    (rc = get_str(r, o, "op", MAX_NAME_LEN, false, &op)) ||
	    (rc = get_str(r, o, "events", MAX_TEXT_LEN, true, &ev)) ||
	    (rc = get_int(r, o, "nevents", 0, 65536, &k)) ||
	    (rc = get_str(r, o, "timer", MAX_NAME_LEN, true, &timer)) ||
	    (rc = get_str(r, o, "note", MAX_TEXT_LEN, true, &note)))
		goto out;
	arr = get_array(r, o, "ns", MAX_SERIES_SAMPLES, &n);
	if (!arr) {
		rc = -EINVAL;
		goto out;
	}
	c = pcost_session_add_series(s, itf, op, ev, (unsigned)k, timer, NULL, 0);
	c->note = note;
	note = NULL;
	free(c->ns);
	c->ns = xcalloc(n ? n : 1, sizeof(double));
	cJSON_ArrayForEach(e, arr)
	{
		/* Timings are non-negative; a week in one call is already absurd. */
		if (!pcost_json_number(e, &c->ns[c->n]) || !isfinite(c->ns[c->n]) ||
		    c->ns[c->n] < 0 || c->ns[c->n] > 6.048e14) {
			rc = fail(r, "ns", "element %zu is not a time in [0, 6.048e14] ns", j);
			goto out;
		}
		c->n++;
		j++;
	}
out:
	free(itf);
	free(op);
	free(ev);
	free(timer);
	free(note);
	return rc;
}

static const char *const session_keys[] = {
	"format",
	"format_version",
	"id",
	"kind",
	"started",
	"cmdline",
	"version",
	"seed",
	"tsc_hz",
	"complete",
	"env",
	"options",
	"configs",
	"series",
	/* optional: run sessions with figures (--metric, a workload's facts) */
	"metrics",
};
#define SESSION_KEYS_REQUIRED 14

/* A figure's name as --metric takes it: [A-Za-z][A-Za-z0-9_]*, under 48 bytes. */
static bool figure_name_ok(const char *n)
{
	size_t l = strlen(n);

	return l > 0 && l < 48 && ((*n >= 'A' && *n <= 'Z') || (*n >= 'a' && *n <= 'z')) &&
	       strspn(n, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") == l;
}

static const char *const metric_keys[] = { "name", "unit", "better" };

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
		char *name = NULL, *unit = NULL;
		const cJSON *b;
		int better = 0;

		snprintf(r->where, sizeof(r->where), "metrics[%zu]", i++);
		if ((rc = check_members(r, e, metric_keys, ARRAY_SIZE(metric_keys))) ||
		    (rc = get_str(r, e, "name", 48, false, &name)) ||
		    (rc = get_str(r, e, "unit", 16, false, &unit)))
			goto next;
		b = cJSON_GetObjectItemCaseSensitive(e, "better");
		if (cJSON_IsString(b) && !strcmp(b->valuestring, "higher"))
			better = 1;
		else if (cJSON_IsString(b) && !strcmp(b->valuestring, "lower"))
			better = -1;
		else if (!cJSON_IsNull(b))
			rc = fail(r, "better", "not \"higher\", \"lower\" or null");
		if (!rc && (!name || !figure_name_ok(name)))
			rc = fail(r, "name", "not a letter then letters, digits or _");
		if (!rc && pcost_session_metric_find(s, name) >= 0)
			rc = fail(r, "name", "'%s' given twice", name);
		if (!rc)
			pcost_session_add_metric(s, name, unit, better);
next:
		free(name);
		free(unit);
		if (rc)
			return rc;
	}
	r->where[0] = '\0';
	r->nmetrics = s->nmetrics;
	return 0;
}

static int read_session(struct reader *r, const cJSON *j, struct pcost_session *s)
{
	const cJSON *v, *arr, *e;
	char *end;
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
	if ((rc = check_members_opt(r, j, session_keys, ARRAY_SIZE(session_keys),
				    SESSION_KEYS_REQUIRED)) ||
	    (rc = get_int(r, j, "format_version", 1, FORMAT_VERSION, &d)))
		return rc;
	v = cJSON_GetObjectItemCaseSensitive(j, "kind");
	if (!cJSON_IsString(v) || pcost_session_kind_parse(v->valuestring, &s->kind))
		return fail(r, "kind", "not \"run\", \"probes\" or \"counters\"");
	if ((rc = get_int(r, j, "id", 0, MAX_EXACT_INT, &d)))
		return rc;
	s->id = (int64_t)d;
	/* Unix seconds from 1970 to 9999-12-31. */
	if ((rc = get_int(r, j, "started", 0, 253402300799.0, &d)))
		return rc;
	s->started = (int64_t)d;
	if ((rc = get_str(r, j, "cmdline", MAX_ARGV_LEN, true, &s->cmdline)) ||
	    (rc = get_str(r, j, "version", MAX_NAME_LEN, true, &s->version)))
		return rc;
	v = cJSON_GetObjectItemCaseSensitive(j, "seed");
	if (!cJSON_IsString(v) || !v->valuestring[0] || v->valuestring[0] < '0' ||
	    v->valuestring[0] > '9' || strlen(v->valuestring) > 20)
		return fail(r, "seed", "not a decimal string");
	errno = 0;
	s->seed = strtoull(v->valuestring, &end, 10);
	if (errno || *end)
		return fail(r, "seed", "not a 64-bit decimal number");
	/* TSC frequencies are a few GHz; 0 means unknown. */
	if ((rc = get_real(r, j, "tsc_hz", 0, 1e11, &s->tsc_hz)) ||
	    (rc = get_bool(r, j, "complete", &s->complete)) ||
	    (rc = get_object_text(r, j, "env", &s->env_json)) ||
	    (rc = get_object_text(r, j, "options", &s->options_json)))
		return rc;

	if ((rc = read_metrics(r, j, s)))
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
