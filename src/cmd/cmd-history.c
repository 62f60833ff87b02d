// SPDX-License-Identifier: MIT
/* cmd/cmd-history: list stored sessions, filtered by date, workload, monitor, kernel, kind. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cmd.h"
#include "cmd/cmd-options.h"
#include "core/format.h"
#include "core/util.h"

static const char *const history_usage[] = {
	"history [--db PATH|URL] [--since DATE] [--until DATE] [--workload NAME]\n"
	"                         [--monitor NAME] [--kernel PREFIX] [--kind run|probes|counters]\n"
	"                         [--format text|json|csv]",
	NULL,
};

/* UTC date -> unix seconds; end_of_day moves a bare date to 23:59:59. */
static int parse_date(const char *s, bool end_of_day, int64_t *out)
{
	static const char *const fmts[] = { "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S",
					    "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d" };
	uint64_t v;

	if (s[0] == '@') {
		if (pcost_parse_u64(s + 1, 0, INT64_MAX, &v))
			return -1;
		*out = (int64_t)v;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(fmts); i++) {
		struct tm tm = { 0 };
		const char *end = strptime(s, fmts[i], &tm);

		if (end && !*end) {
			*out = (int64_t)timegm(&tm) +
			       (end_of_day && i == ARRAY_SIZE(fmts) - 1 ? 86399 : 0);
			return 0;
		}
	}
	return -1;
}

static void fmt_time(int64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (gmtime_r(&tt, &tm))
		strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm);
	else
		snprintf(buf, len, "@%lld", (long long)t);
}

/* CSV field: quoted, with quotes doubled (RFC 4180). */
static void csv_field(const char *s, bool last)
{
	putchar('"');
	for (; s && *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
	putchar(last ? '\n' : ',');
}

static void print_rows(const struct pcost_db_row *rows, size_t n, enum pcost_format fmt)
{
	char when[32];

	if (fmt == PCOST_FMT_JSON) {
		cJSON *arr = cJSON_CreateArray();
		char *text;

		for (size_t i = 0; i < n; i++) {
			const struct pcost_db_row *r = &rows[i];
			cJSON *o = cJSON_CreateObject();

			fmt_time(r->started, when, sizeof(when));
			cJSON_AddNumberToObject(o, "id", (double)r->id);
			cJSON_AddStringToObject(o, "kind", pcost_session_kind_name(r->kind));
			cJSON_AddNumberToObject(o, "started", (double)r->started);
			cJSON_AddStringToObject(o, "started_utc", when);
			cJSON_AddBoolToObject(o, "complete", r->complete);
			if (r->kernel)
				cJSON_AddStringToObject(o, "kernel", r->kernel);
			else
				cJSON_AddNullToObject(o, "kernel");
			cJSON_AddStringToObject(o, "workloads", r->workloads ? r->workloads : "");
			cJSON_AddStringToObject(o, "monitors", r->monitors ? r->monitors : "");
			cJSON_AddNumberToObject(o, "configs", (double)r->nconfigs);
			cJSON_AddNumberToObject(o, "samples", (double)r->nsamples);
			cJSON_AddNumberToObject(o, "series", (double)r->nseries);
			cJSON_AddStringToObject(o, "cmdline", r->cmdline ? r->cmdline : "");
			cJSON_AddItemToArray(arr, o);
		}
		text = cJSON_Print(arr);
		printf("%s\n", text);
		free(text);
		cJSON_Delete(arr);
		return;
	}
	if (fmt == PCOST_FMT_CSV) {
		printf("id,kind,started_utc,complete,kernel,workloads,monitors,configs,samples,series,cmdline\n");
		for (size_t i = 0; i < n; i++) {
			const struct pcost_db_row *r = &rows[i];

			fmt_time(r->started, when, sizeof(when));
			printf("%lld,%s,%s,%d,", (long long)r->id, pcost_session_kind_name(r->kind),
			       when, r->complete);
			csv_field(r->kernel, false);
			csv_field(r->workloads, false);
			csv_field(r->monitors, false);
			printf("%zu,%zu,%zu,", r->nconfigs, r->nsamples, r->nseries);
			csv_field(r->cmdline, true);
		}
		return;
	}
	if (!n) {
		printf("no stored sessions match\n");
		return;
	}
	printf("%5s  %-8s  %-19s  %-20s  %7s  %7s  %-16s  %s\n", "ID", "KIND", "STARTED (UTC)",
	       "KERNEL", "CONFIGS", "SAMPLES", "WORKLOADS", "MONITORS / INTERFACES");
	for (size_t i = 0; i < n; i++) {
		const struct pcost_db_row *r = &rows[i];

		fmt_time(r->started, when, sizeof(when));
		printf("%5lld  %-8s  %-19s  %-20.20s  %7zu  %7zu  %-16.16s  %s%s\n",
		       (long long)r->id, pcost_session_kind_name(r->kind), when,
		       r->kernel ? r->kernel : "?",
		       r->kind == PCOST_SESSION_COUNTERS ? r->nseries : r->nconfigs, r->nsamples,
		       r->workloads ? r->workloads : "-", r->monitors ? r->monitors : "-",
		       r->complete ? "" : "  (incomplete)");
	}
}

/* --since DATE, --until DATE (defval 1: a bare date takes the whole day). */
static int date_opt(const struct pcost_option *opt, const char *arg)
{
	if (parse_date(arg, opt->defval, opt->value))
		return usage_error("'%s' is not a date (YYYY-MM-DD, 'YYYY-MM-DD HH:MM', @SECONDS)",
				   arg);
	return 0;
}

static int kind_opt(const struct pcost_option *opt, const char *arg)
{
	enum pcost_session_kind kind;

	if (pcost_session_kind_parse(arg, &kind))
		return usage_error("unknown --kind '%s' (run, probes or counters)", arg);
	*(int *)opt->value = (int)kind;
	return 0;
}

int cmd_history(int argc, char **argv)
{
	struct pcost_db_filter f = { .kind = -1 };
	struct pcost_store_opts o = { .max_args = 0 };
	const struct pcost_option options[] = {
		OPT_STORE_DB(&o),
		OPT_CALLBACK(0, "since", &f.since, "DATE", "sessions started at DATE or later",
			     date_opt),
		{ .type = PCOST_OPTION_CALLBACK,
		  .long_name = "until",
		  .value = &f.until,
		  .argh = "DATE",
		  .help = "sessions started at DATE or earlier",
		  .callback = date_opt,
		  .defval = 1 },
		OPT_STRING(0, "workload", &f.workload, "NAME", "sessions that ran workload NAME"),
		OPT_STRING(0, "monitor", &f.monitor, "NAME", "sessions that measured monitor NAME"),
		OPT_STRING(0, "kernel", &f.kernel, "PREFIX",
			   "sessions on a kernel release starting with PREFIX"),
		OPT_CALLBACK(0, "kind", &f.kind, "run|probes|counters", "sessions of one kind",
			     kind_opt),
		OPT_STORE_FORMAT(&o,
				 PCOST_FMT_BIT(PCOST_FMT_TEXT) | PCOST_FMT_BIT(PCOST_FMT_JSON) |
					 PCOST_FMT_BIT(PCOST_FMT_CSV),
				 "text, json or csv"),
		OPT_END(),
	};
	struct pcost_parse p = {
		.cmd = "history",
		.usage = history_usage,
		.about =
			"Lists the stored sessions, oldest first.  DATE is YYYY-MM-DD or\n"
			"'YYYY-MM-DD HH:MM[:SS]' in UTC, or @UNIXSECONDS; --until a bare date takes "
			"the\nwhole day.  --kernel matches the start of the kernel release "
			"(\"6.1\").",
		.options = options,
	};
	struct pcost_db_row *rows;
	struct pcost_db *db;
	size_t n;
	int rc;

	if ((rc = pcost_store_opts_parse(&o, &p, argc, argv)))
		return rc == PCOST_OPTS_HELP ? 0 : rc;
	if ((rc = pcost_cli_open_db(o.db, PCOST_DB_READ, &db)))
		return rc;
	if ((rc = pcost_cli_list(db, &f, &rows, &n))) {
		pcost_db_close(db);
		return rc;
	}
	print_rows(rows, n, o.fmt);
	pcost_db_rows_free(rows, n);
	pcost_db_close(db);
	return 0;
}
