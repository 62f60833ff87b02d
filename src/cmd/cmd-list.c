// SPDX-License-Identifier: MIT
/* cmd/cmd-list: print the registry tables (workloads, monitors, counters, probe methods) with availability. */
#include <cjson/cJSON.h>
#include "cmd/cmd.h"
#include "cmd/parse-options.h"
#include "core/format.h"
#include "core/registry.h"
#include "core/util.h"
#include "workloads/workload.h"

struct table {
	const char *name;
	size_t (*rows)(struct pcost_list_row **rows);
	const char *what;
};

static const char *const list_usage[] = {
	"list [workloads|monitors|counters|probes] [--format text|json]",
	NULL,
};

/* "params": [{name, summary, default, min, max | choices}], what completion offers. */
static void add_params_json(cJSON *o, const struct pcost_param_desc *params)
{
	cJSON *arr = cJSON_AddArrayToObject(o, "params");

	for (const struct pcost_param_desc *d = params; d->key; d++) {
		cJSON *p = cJSON_CreateObject();
		char def[64];

		cJSON_AddStringToObject(p, "name", d->key);
		cJSON_AddStringToObject(p, "summary", d->help ? d->help : "");
		pcost_param_value_format(d, d->def, def, sizeof(def));
		/* A number default outside its range, or text, means the key has none. */
		if ((d->type == PCOST_PARAM_U64 && (d->def < d->min || d->def > d->max)) ||
		    d->type == PCOST_PARAM_TEXT)
			cJSON_AddNullToObject(p, "default");
		else
			cJSON_AddStringToObject(p, "default", def);
		if (d->type == PCOST_PARAM_U64) {
			cJSON_AddNumberToObject(p, "min", (double)d->min);
			cJSON_AddNumberToObject(p, "max", (double)d->max);
		} else if (d->type == PCOST_PARAM_ENUM) {
			cJSON *ch = cJSON_AddArrayToObject(p, "choices");

			for (const char *c = d->choices; c && *c;
			     c += strcspn(c, "|"), c += *c == '|') {
				char word[64];

				snprintf(word, sizeof(word), "%.*s", (int)strcspn(c, "|"), c);
				cJSON_AddItemToArray(ch, cJSON_CreateString(word));
			}
		}
		cJSON_AddItemToArray(arr, p);
	}
}

static void print_table(const struct table *t, enum pcost_format fmt, cJSON *json)
{
	struct pcost_list_row *rows = NULL;
	size_t n = t->rows ? t->rows(&rows) : 0;
	cJSON *arr = json ? cJSON_AddArrayToObject(json, t->name) : NULL;

	if (!arr) {
		printf("%s:\n", t->what);
		if (!t->rows)
			printf("  (none in this build)\n");
	}
	for (size_t i = 0; i < n; i++) {
		const struct pcost_list_row *r = &rows[i];

		if (arr) {
			cJSON *o = cJSON_CreateObject();

			cJSON_AddStringToObject(o, "name", r->name);
			cJSON_AddStringToObject(o, "kind", r->kind ? r->kind : "");
			cJSON_AddStringToObject(o, "summary", r->summary ? r->summary : "");
			cJSON_AddBoolToObject(o, "available", r->available);
			if (!r->available)
				cJSON_AddStringToObject(o, "why", r->why);
			if (r->params)
				add_params_json(o, r->params);
			cJSON_AddItemToArray(arr, o);
			continue;
		}
		printf("  %-20s %-10s %-4s %s\n", r->name, r->kind ? r->kind : "",
		       r->available ? "yes" : "no", r->summary ? r->summary : "");
		if (!r->available)
			printf("  %-20s %-10s      ^ not available: %s\n", "", "", r->why);
	}
	free(rows);
	(void)fmt;
}

int cmd_list(int argc, char **argv)
{
	const struct table tables[] = {
		{ "workloads", pcost_workload_list_rows, "workloads (name, unit, runs here?)" },
		{ "monitors", pcost_monitor_list_rows, "monitors (name, kind, available?)" },
		{ "counters", pcost_counter_list_rows,
		  "counter interfaces (name, kind, available?)" },
		{ "probes", pcost_probe_method_list_rows,
		  "probe arming methods (name, kind, available?)" },
	};
	enum pcost_format fmt = PCOST_FMT_TEXT;
	const struct pcost_option options[] = {
		OPT_FORMAT(&fmt, NULL,
			   PCOST_FMT_BIT(PCOST_FMT_TEXT) | PCOST_FMT_BIT(PCOST_FMT_JSON),
			   "text (default) or json"),
		OPT_END(),
	};
	struct pcost_parse p = {
		.cmd = "list",
		.usage = list_usage,
		.about =
			"Prints the registry tables with a one-line summary per row and whether it\n"
			"can run on this machine (and if not, why and how to fix it).  Without an\n"
			"argument, every table.",
		.options = options,
		.bad_option = "unknown option",
	};
	const struct table *only = NULL;
	cJSON *json = NULL;
	int rc;

	if ((rc = pcost_parse_options(&p, argc, argv)))
		return rc == PCOST_OPTS_HELP ? 0 : rc;
	if (p.argc) {
		const char *want = p.argv[0];

		for (size_t i = 0; i < ARRAY_SIZE(tables); i++)
			if (!strcmp(want, tables[i].name) ||
			    (!strncmp(want, tables[i].name, strlen(want)) && strlen(want) >= 4))
				only = &tables[i];
		if (!only)
			return usage_error("unknown table '%s' (workloads, monitors, "
					   "counters, probes)",
					   want);
		if (p.argc > 1)
			return usage_error("unexpected argument '%s'", p.argv[1]);
	}
	if (fmt == PCOST_FMT_JSON)
		json = cJSON_CreateObject();
	for (size_t i = 0; i < ARRAY_SIZE(tables); i++) {
		if (only && only != &tables[i])
			continue;
		if (!json && !only && i)
			printf("\n");
		print_table(&tables[i], fmt, json);
	}
	if (json) {
		char *s = cJSON_Print(json);

		printf("%s\n", s);
		free(s);
		cJSON_Delete(json);
	}
	return 0;
}
