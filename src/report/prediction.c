// SPDX-License-Identifier: MIT
/*
 * report/prediction: what `probecost predict` prints -- each monitor's predicted
 * extra time and overhead with its interval and the term that dominates, or
 * "no model" and why; with --verify, the measured figures beside them.
 */
#include "report/report.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/emit.h"

/* "41,000" */
static void grouped(double v, char *buf, size_t len)
{
	char raw[32], *o = buf;
	size_t n, lead;

	if (!isfinite(v)) {
		snprintf(buf, len, "n/a");
		return;
	}
	if (fabs(v) < 1000 && v != floor(v)) {
		snprintf(buf, len, "%.3g", v);
		return;
	}
	snprintf(raw, sizeof(raw), "%.0f", fabs(v));
	n = strlen(raw);
	lead = n % 3 ? n % 3 : 3;
	if (len < n + n / 3 + 3)
		return;
	if (v < 0)
		*o++ = '-';
	for (size_t i = 0; i < n; i++) {
		if (i && (i - lead) % 3 == 0 && i >= lead)
			*o++ = ',';
		*o++ = raw[i];
	}
	*o = 0;
}

/* What count x cost counts, in words. */
static const char *plural(enum pcost_cost_event e)
{
	static const char *const names[PCOST_CE_N] = {
		[PCOST_CE_SYSCALL] = "syscalls",
		[PCOST_CE_SYSCALL_DECODED] = "decoded syscalls",
		[PCOST_CE_SYSCALL_DIR] = "getdents64 calls",
		[PCOST_CE_SYSCALL_UNTRACED] = "untraced syscalls",
		[PCOST_CE_STOP_AFTER_WORK] = "stops after work",
		[PCOST_CE_STOP_SHARED] = "decoded syscalls beside another tracee",
		[PCOST_CE_SYSCALL_SHARED] = "syscalls beside another task",
		[PCOST_CE_CSWITCH] = "context switches",
		[PCOST_CE_FAULT] = "page faults",
		[PCOST_CE_TASK] = "tasks",
		[PCOST_CE_EXEC] = "execs",
		[PCOST_CE_SAMPLE] = "samples",
		[PCOST_CE_HIT] = "probe hits",
		[PCOST_CE_READ] = "counter reads",
	};

	return e < PCOST_CE_N && names[e] ? names[e] : pcost_cost_event_name(e);
}

/* "96% of it from 41,000 syscalls at 17.9 us" */
static void dominant(const struct pcost_prediction *p, char *buf, size_t len)
{
	const struct pcost_prediction_term *t;
	char n[32], c[48];

	/* Nothing to share out: no term, or a prediction of 0 (a service that did nothing). */
	if (p->dominant < 0 || !isfinite(p->terms[p->dominant].share)) {
		snprintf(buf, len, "-");
		return;
	}
	t = &p->terms[p->dominant];
	pcost_text_ns_ci(t->cost_ns, NAN, NAN, NULL, c, sizeof(c));
	if (t->event == PCOST_CE_RUN) {
		snprintf(buf, len, "%.0f%% of it the fixed cost, %s a run", 100 * t->share, c);
		return;
	}
	grouped(t->count, n, sizeof(n));
	snprintf(buf, len, "%.0f%% of it from %s %s%s at %s", 100 * t->share, n,
		 p->service ? "service " : "", plural(t->event), c);
}

/* "# LEAD: 41,000 syscalls, ... 1.2 s CPU" (no newline). */
static void counts_of(const struct pcost_counts *c, const char *lead, FILE *out)
{
	static const char *const unit[PCOST_CNT_N] = { "syscalls",    "context switches",
						       "page faults", "tasks",
						       "execs",	      "" };
	static const char *const one[PCOST_CNT_N] = { "syscall", "context switch", "page fault",
						      "task",	 "exec",	   "" };

	fprintf(out, "# %s:", lead);
	for (int k = 0; k < PCOST_CNT_N; k++) {
		char n[32];

		if (k == PCOST_CNT_TASK_CLOCK_NS) {
			pcost_text_ns_ci(c->n[k], NAN, NAN, NULL, n, sizeof(n));
			fprintf(out, " %s CPU", n);
			continue;
		}
		grouped(c->n[k], n, sizeof(n));
		fprintf(out, " %s %s,", n, c->n[k] == 1 ? one[k] : unit[k]);
	}
}

static void counts_line(const struct pcost_predict_report *r, FILE *out)
{
	const struct pcost_counts *c = r->counts;
	char lead[64];

	snprintf(lead, sizeof(lead), "counted in %u untimed run%s", r->count_runs,
		 r->count_runs == 1 ? "" : "s");
	counts_of(c, lead, out);
	{
		char b[48];

		pcost_text_ns_ci(c->base_ns, NAN, NAN, NULL, b, sizeof(b));
		fprintf(out, "; plain run %s (+- %.1f%%, %u runs), %.2f tasks side by side%s", b,
			c->base_ns > 0 ? 100 * c->base_se / c->base_ns : NAN, r->plain_runs,
			isfinite(c->parallel) && c->parallel > 1 ? c->parallel : 1,
			r->service_counts ? " (with the service's)" : "");
		if (isfinite(c->concurrency))
			fprintf(out, ", %.2f alive at once", c->concurrency);
		if (isfinite(c->others))
			fprintf(out, ", %.2f CPUs taken by other processes", c->others);
		if (isfinite(r->table_others))
			fprintf(out, " (the cost table's runs: %.2f)", r->table_others);
		fputc('\n', out);
	}
	if (r->service_counts) {
		/* Per run of the command: what the monitors that watch the service pay for. */
		counts_of(r->service_counts, "the service's processes, in the same runs", out);
		fputc('\n', out);
	}
}

/*
 * Seconds since the cost table was measured (its start), NAN when unknown.  A
 * ptrace stop's cost moves with the host under a virtual machine: a table
 * from another hour can be a fifth off (docs/predict.md), so its age is shown.
 */
static double table_age(const struct pcost_cost_table *t)
{
	time_t now = time(NULL);

	return t->created > 0 && now >= t->created ? (double)(now - t->created) : NAN;
}

/* The table row i's costs came from: the newest, or an older one that has its monitor. */
static const struct pcost_cost_table *row_table(const struct pcost_predict_report *r, size_t i)
{
	return r->from && r->from[i] ? r->from[i] : r->table;
}

/* "measured 12 min ago", in the unit that reads best. */
static void age_words(double s, char *buf, size_t len)
{
	if (!isfinite(s))
		snprintf(buf, len, "measured at an unknown time");
	else if (s < 120)
		snprintf(buf, len, "measured %.0f s ago", s);
	else if (s < 120 * 60)
		snprintf(buf, len, "measured %.0f min ago", s / 60);
	else if (s < 48 * 3600)
		snprintf(buf, len, "measured %.1f h ago", s / 3600);
	else
		snprintf(buf, len, "measured %.1f days ago", s / 86400);
}

static void headline(const struct pcost_predict_report *r, FILE *out, const char *lead)
{
	bool pinned = r->placement && !strncmp(r->placement, "cpu=", 4);
	char age[64];

	age_words(table_age(r->table), age, sizeof(age));
	/* The conditions predicted for, first: a cost holds only under its placement. */
	fprintf(out, "%sprobecost predict: %s | %s%s | cost table %lld (%s, Linux %s, %s)\n", lead,
		r->command, pinned ? "pinned to CPU " : "unpinned, as 'probecost run' runs it",
		pinned ? r->placement + 4 : "", (long long)r->table->id,
		r->table->level ? r->table->level : "?", r->table->kernel ? r->table->kernel : "?",
		age);
	/* A monitor the newest table lacks is priced from the newest older one that has it. */
	for (size_t i = 0; r->from && i < r->n; i++) {
		const struct pcost_cost_table *f = r->from[i];

		if (!f)
			continue;
		age_words(table_age(f), age, sizeof(age));
		fprintf(out,
			"%s  %s: costs from cost table %lld (%s, %s), which table %lld lacks\n",
			lead, r->p[i].monitor, (long long)f->id, f->level ? f->level : "?", age,
			(long long)r->table->id);
	}
	counts_line(r, out);
}

/* "yes" or "no" for one interval holding the other; "n/a" where either is missing. */
static const char *held_word(const struct pcost_prediction *p,
			     const struct pcost_prediction_check *k, bool held)
{
	return !p->has_model || !k->measured ? "n/a" : held ? "yes" : "no";
}

/* The warning when the table's conditions are not the plain runs' (pcost_predict_conditions). */
static void conditions(const struct pcost_predict_report *r, FILE *out, bool md)
{
	char msg[PCOST_WARNING_LEN];

	if (pcost_predict_conditions(r->p, r->n, r->counts->others, r->table_others, msg,
				     sizeof(msg)))
		fprintf(out, "\n%swarning: %s\n", md ? "- " : "", msg);
}

static void text(const struct pcost_predict_report *r, FILE *out, bool md)
{
	if (r->check_only)
		goto check;
	headline(r, out, "# ");
	if (md)
		fputs("\n| monitor | predicted extra | predicted overhead | dominant term |\n"
		      "|---|---|---|---|\n",
		      out);
	else
		fprintf(out, "\n  %-30s %-32s %-26s %s\n", "monitor", "predicted extra",
			"predicted overhead", "dominant term");
	for (size_t i = 0; i < r->n; i++) {
		const struct pcost_prediction *p = &r->p[i];
		char e[96], o[64], d[160];

		if (!p->has_model) {
			if (md) {
				pcost_md_cells(out, p->monitor, "no model");
				fputs("n/a | ", out);
				for (const char *w = p->why; *w; w++)
					fprintf(out, "%s%c", *w == '|' ? "\\" : "", *w);
				fputs(" |\n", out);
			} else {
				fprintf(out, "  %-30s no model: %s\n", p->monitor, p->why);
			}
			continue;
		}
		pcost_text_ns_ci(p->extra_ns, p->extra_lo, p->extra_hi, NULL, e, sizeof(e));
		pcost_text_pct_ci(p->overhead, p->overhead_lo, p->overhead_hi, true, o, sizeof(o));
		dominant(p, d, sizeof(d));
		if (md) {
			pcost_md_cells(out, p->monitor, e);
			fprintf(out, "%s | %s |\n", o, d);
		} else {
			fprintf(out, "  %-30s +%-31s %-26s %s\n", p->monitor, e, o, d);
		}
	}
	conditions(r, out, md);
check:
	if (!r->check)
		return;
	fprintf(out, "\n%spredicted against measured (run session %lld, paired blocks):%s\n",
		md ? "**" : "# ", (long long)r->verify_session, md ? "**" : "");
	if (md)
		fputs("\n| monitor | predicted overhead | measured overhead | predicted extra | "
		      "measured extra | error | measured in predicted | predicted in measured |\n"
		      "|---|---|---|---|---|---|---|---|\n",
		      out);
	else
		fprintf(out, "\n  %-30s %-24s %-24s %-28s %-28s %-7s %-6s %s\n", "monitor",
			"predicted overhead", "measured overhead", "predicted extra",
			"measured extra", "error", "m in p", "p in m");
	for (size_t i = 0; i < r->n; i++) {
		const struct pcost_prediction *p = &r->p[i];
		const struct pcost_prediction_check *k = &r->check[i];
		char po[64], mo[64], pe[96], me[96], err[16];

		pcost_text_pct_ci(p->overhead, p->overhead_lo, p->overhead_hi, true, po,
				  sizeof(po));
		pcost_text_pct_ci(k->overhead, k->overhead_lo, k->overhead_hi, true, mo,
				  sizeof(mo));
		pcost_text_ns_ci(p->extra_ns, p->extra_lo, p->extra_hi, NULL, pe, sizeof(pe));
		pcost_text_ns_ci(k->extra_ns, k->extra_lo, k->extra_hi, NULL, me, sizeof(me));
		if (isfinite(k->error))
			snprintf(err, sizeof(err), "%+.0f%%", 100 * k->error);
		else
			snprintf(err, sizeof(err), "n/a");
		if (!k->measured)
			snprintf(mo, sizeof(mo), "not measured: %s", k->why);
		if (md) {
			pcost_md_cells(out, p->monitor, po);
			pcost_md_cells(out, mo, pe);
			fprintf(out, "%s | %s | %s | %s |\n", me, err,
				held_word(p, k, k->measured_in_predicted),
				held_word(p, k, k->predicted_in_measured));
		} else {
			fprintf(out, "  %-30s %-24s %-24s %-28s %-28s %-7s %-6s %s\n", p->monitor,
				po, mo, pe, me, err, held_word(p, k, k->measured_in_predicted),
				held_word(p, k, k->predicted_in_measured));
		}
	}
}

static void json_terms(cJSON *o, const struct pcost_prediction *p)
{
	cJSON *terms = cJSON_AddArrayToObject(o, "terms");

	for (size_t t = 0; t < p->nterms; t++) {
		const struct pcost_prediction_term *x = &p->terms[t];
		cJSON *j = cJSON_CreateObject();

		cJSON_AddStringToObject(j, "event", pcost_cost_event_name(x->event));
		cJSON_AddItemToObject(j, "count", pcost_json_num(x->count));
		cJSON_AddItemToObject(j, "count_se", pcost_json_num(x->count_se));
		pcost_json_ci(j, "cost_ns", x->cost_ns, x->cost_lo, x->cost_hi);
		cJSON_AddItemToObject(j, "overlap", pcost_json_num(x->overlap));
		cJSON_AddItemToObject(j, "extra_ns", pcost_json_num(x->extra_ns));
		cJSON_AddItemToObject(j, "share", pcost_json_num(x->share));
		cJSON_AddItemToArray(terms, j);
	}
}

/* {"syscalls": {"mean": .., "se": ..}, ...} as root's key. */
static void json_counts(cJSON *root, const char *key, const struct pcost_counts *c)
{
	static const char *const names[PCOST_CNT_N] = { "syscalls",    "context_switches",
							"page_faults", "tasks",
							"execs",       "task_clock_ns" };
	cJSON *counts = cJSON_AddObjectToObject(root, key);

	for (int k = 0; k < PCOST_CNT_N; k++) {
		cJSON *o = cJSON_AddObjectToObject(counts, names[k]);

		cJSON_AddItemToObject(o, "mean", pcost_json_num(c->n[k]));
		cJSON_AddItemToObject(o, "se", pcost_json_num(c->se[k]));
		if (!isfinite(c->n[k]))
			cJSON_AddStringToObject(o, "why", c->why[k]);
	}
}

static void json(const struct pcost_predict_report *r, FILE *out)
{
	cJSON *root = cJSON_CreateObject(), *rows;
	double age = table_age(r->table);

	cJSON_AddStringToObject(root, "probecost", PCOST_VERSION);
	cJSON_AddStringToObject(root, "kind", "predict");
	cJSON_AddStringToObject(root, "command", r->command);
	cJSON_AddNumberToObject(root, "cost_table", (double)r->table->id);
	cJSON_AddItemToObject(root, "cost_table_age_s", pcost_json_num(age));
	cJSON_AddStringToObject(root, "placement", r->placement ? r->placement : "unpinned");
	cJSON_AddNumberToObject(root, "count_runs", r->count_runs);
	cJSON_AddNumberToObject(root, "plain_runs", r->plain_runs);
	json_counts(root, "counts", r->counts);
	if (r->service_counts) {
		cJSON_AddStringToObject(root, "service", r->service);
		json_counts(root, "service_counts", r->service_counts);
	}
	cJSON_AddItemToObject(root, "plain_ns", pcost_json_num(r->counts->base_ns));
	cJSON_AddItemToObject(root, "plain_se_ns", pcost_json_num(r->counts->base_se));
	cJSON_AddItemToObject(root, "parallel", pcost_json_num(r->counts->parallel));
	cJSON_AddItemToObject(root, "concurrency", pcost_json_num(r->counts->concurrency));
	cJSON_AddItemToObject(root, "other_cpus", pcost_json_num(r->counts->others));
	cJSON_AddItemToObject(root, "table_other_cpus", pcost_json_num(r->table_others));
	cJSON_AddItemToObject(
		root, "spare_idle",
		pcost_json_num(isfinite(r->counts->others) ? pcost_spare_idle(r->counts) : NAN));
	if (!isfinite(r->counts->concurrency))
		cJSON_AddStringToObject(root, "concurrency_why", r->counts->concurrency_why);
	if (r->check)
		cJSON_AddNumberToObject(root, "verify_session", (double)r->verify_session);
	rows = cJSON_AddArrayToObject(root, "statistics");
	for (size_t i = 0; i < r->n; i++) {
		const struct pcost_prediction *p = &r->p[i];
		cJSON *o = cJSON_CreateObject();
		const struct pcost_cost_table *f = row_table(r, i);
		double fage = table_age(f);

		cJSON_AddStringToObject(o, "monitor", p->monitor);
		cJSON_AddNumberToObject(o, "cost_table", (double)f->id);
		cJSON_AddItemToObject(o, "cost_table_age_s", pcost_json_num(fage));
		cJSON_AddBoolToObject(o, "model", p->has_model);
		cJSON_AddStringToObject(o, "paid_by", p->service ? "service" : "command");
		cJSON_AddItemToObject(
			o, "why", p->has_model ? cJSON_CreateNull() : cJSON_CreateString(p->why));
		pcost_json_ci(o, "predicted_overhead", p->overhead, p->overhead_lo, p->overhead_hi);
		pcost_json_ci(o, "predicted_extra_ns", p->extra_ns, p->extra_lo, p->extra_hi);
		cJSON_AddItemToObject(o, "dominant",
				      p->dominant >= 0 ? cJSON_CreateString(pcost_cost_event_name(
								 p->terms[p->dominant].event))
						       : cJSON_CreateNull());
		json_terms(o, p);
		if (r->check) {
			const struct pcost_prediction_check *k = &r->check[i];

			pcost_json_ci(o, "measured_overhead", k->overhead, k->overhead_lo,
				      k->overhead_hi);
			pcost_json_ci(o, "measured_extra_ns", k->extra_ns, k->extra_lo,
				      k->extra_hi);
			cJSON_AddItemToObject(o, "error", pcost_json_num(k->error));
			if (p->has_model && k->measured) {
				cJSON_AddBoolToObject(o, "measured_in_predicted",
						      k->measured_in_predicted);
				cJSON_AddBoolToObject(o, "predicted_in_measured",
						      k->predicted_in_measured);
			} else {
				cJSON_AddNullToObject(o, "measured_in_predicted");
				cJSON_AddNullToObject(o, "predicted_in_measured");
			}
		}
		cJSON_AddItemToArray(rows, o);
	}
	{
		char msg[1][PCOST_WARNING_LEN];
		bool w = pcost_predict_conditions(r->p, r->n, r->counts->others, r->table_others,
						  msg[0], sizeof(msg[0]));

		pcost_json_warnings(root, (const char(*)[PCOST_WARNING_LEN])msg, w ? 1 : 0);
	}
	pcost_json_print(root, out);
}

static void csv(const struct pcost_predict_report *r, FILE *out)
{
	fputs("monitor,model,why,predicted_overhead,predicted_overhead_lo,predicted_overhead_hi,"
	      "predicted_extra_ns,predicted_extra_ns_lo,predicted_extra_ns_hi,dominant,"
	      "measured_overhead,measured_overhead_lo,measured_overhead_hi,measured_extra_ns,"
	      "measured_extra_ns_lo,measured_extra_ns_hi,measured_in_predicted,"
	      "predicted_in_measured,cost_table,cost_table_age_s\n",
	      out);
	for (size_t i = 0; i < r->n; i++) {
		const struct pcost_prediction *p = &r->p[i];
		const struct pcost_prediction_check *k = r->check ? &r->check[i] : NULL;
		const struct pcost_cost_table *f = row_table(r, i);
		struct pcost_csv c = { .out = out };
		bool both = k && p->has_model && k->measured;
		double fage = table_age(f);

		pcost_csv_str(&c, p->monitor);
		pcost_csv_bool(&c, p->has_model);
		pcost_csv_str(&c, p->has_model ? "" : p->why);
		pcost_csv_ci(&c, "%.6g", p->overhead, p->overhead_lo, p->overhead_hi);
		pcost_csv_ci(&c, "%.0f", p->extra_ns, p->extra_lo, p->extra_hi);
		pcost_csv_str(&c, p->dominant >= 0
					  ? pcost_cost_event_name(p->terms[p->dominant].event)
					  : "");
		pcost_csv_ci(&c, "%.6g", k ? k->overhead : NAN, k ? k->overhead_lo : NAN,
			     k ? k->overhead_hi : NAN);
		pcost_csv_ci(&c, "%.0f", k ? k->extra_ns : NAN, k ? k->extra_lo : NAN,
			     k ? k->extra_hi : NAN);
		if (both) {
			pcost_csv_bool(&c, k->measured_in_predicted);
			pcost_csv_bool(&c, k->predicted_in_measured);
		} else {
			pcost_csv_str(&c, "");
			pcost_csv_str(&c, "");
		}
		pcost_csv_num(&c, "%.0f", (double)f->id);
		pcost_csv_num(&c, "%.0f", fage);
		pcost_csv_end(&c);
	}
}

int pcost_report_predict(const struct pcost_predict_report *r, enum pcost_format f, FILE *out)
{
	if (f == PCOST_FMT_JSON)
		json(r, out);
	else if (f == PCOST_FMT_CSV)
		csv(r, out);
	else
		text(r, out, f == PCOST_FMT_MARKDOWN);
	return ferror(out) ? -EIO : 0;
}
