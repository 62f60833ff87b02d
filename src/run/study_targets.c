// SPDX-License-Identifier: MIT
/* run/study_targets: run's targets: the workloads' argv at each scale, the counted command. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/proc.h"
#include "core/util.h"
#include "monitors/monitor.h"
#include "run/figure_values.h"
#include "run/study.h"
#include "run/study_internal.h"
#include "stats/predict.h"
#include "workloads/workload.h"

/* "pipe:loops=2000,mode=thread" at scale k -> argv for `probecost workload`, and its record. */
static int workload_argv(const char *spec, double scale, unsigned threads, char ***argv,
			 char **name, char **args, char *unit, size_t unitlen)
{
	const struct pcost_workload *wl;
	struct pcost_params p;
	char *copy = xstrdup(spec), *colon = strchr(copy, ':'), *words[PCOST_MAX_PARAMS + 1];
	char err[256], fmt[1024], *save = NULL;
	int n = 0, idx;

	if (colon)
		*colon = 0;
	if (colon && !pcost_list_well_formed(colon + 1)) {
		usage_error("workload '%s': expected KEY=VALUE,... after ':' (or no ':')", spec);
		free(copy);
		return -EINVAL;
	}
	if (!(wl = pcost_workload_find(copy))) {
		usage_error("unknown workload '%s'; see 'probecost list workloads'", copy);
		free(copy);
		return -EINVAL;
	}
	for (char *t = colon ? strtok_r(colon + 1, ",", &save) : NULL; t;
	     t = strtok_r(NULL, ",", &save)) {
		if (n >= PCOST_MAX_PARAMS) {
			usage_error("workload '%s': too many parameters", spec);
			free(copy);
			return -EINVAL;
		}
		words[n++] = t;
	}
	words[n] = NULL;
	if (pcost_params_parse(wl, n, words, &p, err, sizeof(err)) < 0) {
		usage_error("workload '%s': %s", spec, err);
		free(copy);
		return -EINVAL;
	}
	if (scale != 1) {
		if (!wl->size_key || (idx = pcost_param_index(wl, wl->size_key)) < 0) {
			usage_error("workload '%s' has no size to scale", wl->name);
			free(copy);
			return -EINVAL;
		}
		const struct pcost_param_desc *d = &wl->params[idx];
		double v = round((double)p.v[idx] * scale);

		if (v > (double)d->max) {
			usage_error(
				"workload '%s' at --scale %g: %s=%.0f is past its largest, %llu",
				spec, scale, d->key, v, (unsigned long long)d->max);
			free(copy);
			return -EINVAL;
		}
		p.v[idx] = v < 1 ? 1 : (uint64_t)v;
		p.given[idx] = true;
	}
	if (threads) {
		if ((idx = pcost_param_index(wl, "threads")) < 0) {
			usage_error("--threads: workload '%s' has no threads; use one that has "
				    "(see 'probecost list workloads')",
				    wl->name);
			free(copy);
			return -EINVAL;
		}
		p.v[idx] = threads;
		p.given[idx] = true;
	}
	pcost_params_format(&p, fmt, sizeof(fmt));
	{
		char *tmp = xasprintf("%s workload %s %s", pcost_self_exe(), wl->name, fmt);
		char **v;

		/* The words have no quotes or blanks in them: the formatted k=v list. */
		if (pcost_argv_split(tmp, &v) < 0)
			v = NULL;
		free(tmp);
		/* argv[0] may hold blanks (a path with spaces): put it back whole. */
		if (v) {
			free(v[0]);
			v[0] = xstrdup(pcost_self_exe());
			if (strchr(pcost_self_exe(), ' ')) {
				pcost_argv_free(v);
				v = NULL;
			}
		}
		if (!v) {
			usage_error("the probecost binary's path '%s' has blanks; move it",
				    pcost_self_exe());
			free(copy);
			return -EINVAL;
		}
		*argv = v;
	}
	*name = xstrdup(wl->name);
	*args = xstrdup(fmt);
	snprintf(unit, unitlen, "%s", wl->unit ?: "event");
	free(copy);
	return 0;
}

/* word with every "{n}" replaced by n; caller frees. */
static char *subst_n(const char *word, uint64_t n)
{
	char num[24];

	snprintf(num, sizeof(num), "%llu", (unsigned long long)n);
	return pcost_replace_all(word, "{n}", num);
}

/*
 * The events a monitor pays for, of those a counting run counts: per syscall
 * for the syscall tracers, per context switch for perf stat, per task for the
 * rest that follow tasks (stats/predict.c's table); -1 when none of them.
 */
static int paid_event(const char *monitor)
{
	unsigned ev = pcost_model_events(monitor, NULL);

	if (ev & (1u << PCOST_CE_SYSCALL | 1u << PCOST_CE_SYSCALL_DECODED))
		return PCOST_EVC_SYSCALLS;
	if (ev & 1u << PCOST_CE_CSWITCH)
		return PCOST_EVC_CSWITCHES;
	if (ev & 1u << PCOST_CE_TASK)
		return PCOST_EVC_TASKS;
	return -1;
}

const char *pcost_study_paid_unit(int k)
{
	return k == PCOST_EVC_CSWITCHES ? "context-switch"
	       : k == PCOST_EVC_TASKS	? "task"
					: "syscall";
}

/* Is option opt ("-T", "--time") in words: alone, with its value glued ("-T5", "--time=5")? */
static bool opt_given(char *const *words, const char *opt)
{
	size_t n = strlen(opt);

	for (; *words; words++)
		if (!strncmp(*words, opt, n) &&
		    (!(*words)[n] ||
		     (opt[1] == '-' ? (*words)[n] == '=' : isdigit((unsigned char)(*words)[n]))))
			return true;
	return false;
}

/*
 * The load generators known to run for a fixed time, not a fixed amount of
 * work, from the command's words: pgbench -T, wrk (always: -d, 10 s by
 * default), sysbench (--time, 10 s by default, unless --time=0), fio
 * --time_based.  A monitor's cost then shows as less work done in the same
 * time.  NULL: not known to.
 */
static const char *fixed_time_load(char *const *argv)
{
	for (size_t i = 0; argv[i]; i++) {
		const char *b = strrchr(argv[i], '/');

		b = b ? b + 1 : argv[i];
		if (!strcmp(b, "wrk"))
			return "wrk -d";
		if (!strcmp(b, "pgbench"))
			return opt_given(argv + i + 1, "-T") || opt_given(argv + i + 1, "--time")
				       ? "pgbench -T"
				       : NULL;
		if (!strcmp(b, "sysbench")) {
			for (size_t k = i + 1; argv[k]; k++)
				if (!strcmp(argv[k], "--time=0"))
					return NULL;
			return "sysbench --time";
		}
		if (!strcmp(b, "fio"))
			return opt_given(argv + i + 1, "--time_based") ? "fio --time_based" : NULL;
	}
	return NULL;
}

/* The last 1 MiB written to fd (from its start), NUL-terminated, malloc'd; *len its length. */
static char *fd_tail(int fd, size_t *len)
{
	off_t end = lseek(fd, 0, SEEK_END), from = end > (1 << 20) ? end - (1 << 20) : 0;
	char *buf = xmalloc((size_t)(end > from ? end - from : 0) + 1);
	ssize_t n;

	*len = 0;
	while (end > from && (n = pread(fd, buf + *len, (size_t)(end - from), from)) > 0) {
		*len += (size_t)n;
		from += n;
	}
	buf[*len] = 0;
	return buf;
}

/*
 * With --service, what prices a monitor of the service by the work done when
 * it does not lengthen the run (stats/analyze.c), as JSON text (malloc'd): the
 * counting run's wall time (the service's events were counted over it), the
 * figures of --metric its output (out_fd, -1: not captured) printed, and
 * whether the load is known to run for a fixed time.
 */
static char *counted_run_json(const struct pcost_study *st, int out_fd)
{
	const struct pcost_study_opts *a = st->o;
	cJSON *o = cJSON_CreateObject(), *f = cJSON_AddObjectToObject(o, "figures");
	const char *ft = fixed_time_load(a->command);
	size_t len = 0;
	char *out = out_fd >= 0 ? fd_tail(out_fd, &len) : NULL, *txt, err[512];

	cJSON_AddNumberToObject(o, "wall_ns", (double)st->counted.wall_ns);
	if (ft)
		cJSON_AddStringToObject(o, "fixed_time", ft);
	for (size_t k = 0; out && k < a->metrics.n; k++) {
		struct pcost_metric_value v;
		cJSON *e;

		if (pcost_metric_extract(a->metrics.m[k], out, len, err, sizeof(err), &v) < 0)
			continue;
		e = cJSON_AddObjectToObject(f, a->metrics.m[k]->name);
		cJSON_AddNumberToObject(e, "value", v.value);
		cJSON_AddStringToObject(e, "unit", v.unit);
	}
	free(out);
	txt = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return txt;
}

/*
 * A user's command without --events: what it does that monitors pay for, in
 * one untimed counting run before the blocks (run/evcount.h), so each row has
 * its events made and a per-event cost.  With --service, the service is
 * started first and the run counts its processes' events too (those it starts
 * during the run included): what the monitors that watch it pay for.  Nothing
 * is counted with --service-pid (a service probecost did not start is not
 * opened to counters it did not ask for) or when the machine cannot count (not root): the rows say why.
 */
int pcost_study_count_command(struct pcost_study *st)
{
	const struct pcost_study_opts *a = st->o;
	char *null_argv[] = { (char *)pcost_self_exe(), "workload", "null", NULL };
	struct pcost_evcount_opts o = { .cpu_mask = a->ro.cpu_mask,
					.timeout_s = a->ro.timeout_s,
					.no_by_nr = true,
					.no_probes = true,
					.out_fd = -1,
					.err_fd = -1 };
	char err[256];
	int rc;

	if (!a->command || a->events >= 0 || a->service_pid)
		return 0;
	if (a->service) {
		if ((rc = pcost_study_service_start(&st->sv)) < 0)
			return rc;
		o.service_pid = pcost_service_pid(&st->sv);
		o.service = &st->service_counted;
		/* Its output, for the figures of --metric it prints (a rate of work). */
		if (a->metrics.n)
			o.out_fd = o.err_fd = memfd_create("probecost-count", MFD_CLOEXEC);
	}
	rc = pcost_evcount_run(a->command, &o, &st->counted, err, sizeof(err));
	if (o.service) {
		st->have_service_counted = true;
		if (rc >= 0)
			st->counted_run = counted_run_json(st, o.out_fd);
	}
	if (o.out_fd >= 0)
		close(o.out_fd);
	o.out_fd = o.err_fd = -1;
	if (rc < 0)
		pcost_evcount_release(&st->counted);
	if (rc == -EINTR)
		return rc;
	if (rc < 0)
		return error("%s", err), -EIO;
	st->have_counted = true;
	o.service_pid = 0;
	o.service = NULL;
	/*
	 * The null workload's own events (its start-up's syscalls: probecost's
	 * loader and libraries, about 136), which its monitors pay for as the
	 * command's: the model takes them off both sides (stats/analyze.c).
	 */
	rc = pcost_evcount_run(null_argv, &o, &st->null_counted, err, sizeof(err));
	if (rc < 0)
		pcost_evcount_release(&st->null_counted);
	if (rc == -EINTR)
		return rc;
	if (rc < 0)
		warning("the null workload could not be counted (%s): no model-based per-event cost",
			err);
	st->have_null_counted = rc >= 0;
	return 0;
}

/*
 * With --service, a monitor other than a wrapper watches the service (its
 * service form, perf-record-system, --attach); the baseline's row carries the
 * service's events too, as the rows it is the baseline of.
 */
static bool watches_service(const struct pcost_study *st, const struct pcost_monitor *m)
{
	return st->have_service_counted && m->ops->kind != PCOST_MON_WRAP;
}

/* A row's unit for the service's events of kind k ("service syscall"): stats/analyze.c
 * prices them per event of the whole run (the monitor attached before it). */
static const char *service_unit(int k)
{
	return k == PCOST_EVC_CSWITCHES ? "service context-switch"
	       : k == PCOST_EVC_TASKS	? "service task"
					: "service syscall";
}

/*
 * The user's command at one scale: {n} becomes the event count at that scale
 * (--events x scale), as hyperfine's --parameter-scan does; one configuration
 * per monitor.
 */
static void add_command(struct pcost_study *st, double scale)
{
	const struct pcost_study_opts *a = st->o;
	int64_t ev = a->events >= 0 ? (int64_t)llround((double)a->events * scale) : -1;
	char **argv = xcalloc((size_t)a->ncommand + 1, sizeof(char *)), *joined;
	struct pcost_target t = {
		.workload = "command",
		.unit = a->unit ? a->unit : "event",
		.argv = argv,
		.scale = scale,
		.events = ev,
		.report_fd = false,
	};

	for (int i = 0; i < a->ncommand; i++)
		argv[i] = subst_n(a->command[i], ev >= 0 ? (uint64_t)ev : 0);
	joined = pcost_join_argv(a->ncommand, argv);
	t.workload_args = joined;
	for (size_t m = 0; m < st->nmons; m++) {
		/* Counted: each row's events are what its monitor pays for (the baseline's:
		 * syscalls), the service's for a monitor that watches it; --events N: the
		 * user's count and unit for every row. */
		int k = st->have_counted ? paid_event(st->mons[m]->name) : -1;

		if (st->have_counted && st->mons[m]->ops->kind == PCOST_MON_BASELINE)
			k = PCOST_EVC_SYSCALLS;
		if (k >= 0 && watches_service(st, st->mons[m])) {
			t.events = st->service_counted.v[k];
			t.unit = service_unit(k);
		} else if (k >= 0) {
			t.events = st->counted.v[k];
			t.unit = pcost_study_paid_unit(k);
		}
		pcost_runner_add(&st->r, st->mons[m], &t);
		t.events = ev;
		t.unit = a->unit ? a->unit : "event";
	}
	free(joined);
	pcost_argv_free(argv);
}

/*
 * With a counted command, every monitor on the null workload too: its fixed
 * cost (start-up and tear-down) measured in the same blocks, which the
 * per-event cost of the command takes off (stats/analyze.c: model).
 */
static void add_null_twins(struct pcost_study *st)
{
	char *argv[] = { (char *)pcost_self_exe(), "workload", "null", NULL };
	struct pcost_target t = { .workload = "null",
				  .workload_args = "",
				  .unit = "none",
				  .argv = argv,
				  .scale = 1,
				  .events = -1,
				  .report_fd = true };
	bool priced = false;

	/* Nothing counted (not root), or no monitor pays for what is counted (a custom
	 * wrapper): no per-event figure to take the fixed cost off.  With --service,
	 * only the monitors that wrap the load generator need one (and their
	 * baseline): the others' rows are priced without (stats/analyze.c). */
	for (size_t m = 0; m < st->nmons; m++)
		priced |= !watches_service(st, st->mons[m]) && paid_event(st->mons[m]->name) >= 0;
	if (!priced || !st->have_counted || st->counted.v[PCOST_EVC_SYSCALLS] < 0)
		return;
	for (size_t m = 0; m < st->nmons; m++)
		if (!watches_service(st, st->mons[m]) ||
		    st->mons[m]->ops->kind == PCOST_MON_BASELINE)
			pcost_runner_add(&st->r, st->mons[m], &t);
}

/* One monitor on one target, once per --placement asked (the baseline once, unplaced). */
static void add_placed(struct pcost_study *st, struct pcost_monitor *m, struct pcost_target *t)
{
	static const char *const names[] = { "same", "split" };
	const struct pcost_study_opts *a = st->o;

	if (m->ops->kind == PCOST_MON_BASELINE || (!a->placement[0] && !a->placement[1])) {
		pcost_runner_add(&st->r, m, t);
		return;
	}
	for (int k = 0; k < 2; k++) {
		if (!a->placement[k])
			continue;
		t->placement = names[k];
		t->monitor_cpu_mask = k ? a->split_mask : a->ro.cpu_mask;
		pcost_runner_add(&st->r, m, t);
	}
	t->placement = NULL;
	t->monitor_cpu_mask = 0;
}

/* Every -w at every --scale and --threads, under every monitor. */
static int add_workloads(struct pcost_study *st)
{
	const struct pcost_study_opts *a = st->o;
	size_t nthreads = a->nthreads ? a->nthreads : 1;

	for (size_t w = 0; w < a->nworkloads; w++) {
		for (size_t k = 0; k < a->nscales; k++) {
			for (size_t h = 0; h < nthreads; h++) {
				struct pcost_target t = { .scale = a->scales[k],
							  .events = -1,
							  .report_fd = true };
				char **wargv, *name, *args, unit[32];

				t.threads = a->nthreads ? a->threads[h] : 0;
				if (workload_argv(a->workloads[w], a->scales[k], t.threads, &wargv,
						  &name, &args, unit, sizeof(unit)) < 0)
					return -EINVAL;
				t.workload = name;
				t.workload_args = args;
				t.unit = unit;
				t.argv = wargv;
				pcost_figures_declare_workload(&st->s, pcost_workload_find(name),
							       args);
				for (size_t m = 0; m < st->nmons; m++)
					add_placed(st, st->mons[m], &t);
				pcost_argv_free(wargv);
				free(name);
				free(args);
			}
		}
	}
	return 0;
}

int pcost_study_add_targets(struct pcost_study *st)
{
	if (!st->o->command)
		return add_workloads(st);
	for (size_t k = 0; k < st->o->nscales; k++)
		add_command(st, st->o->scales[k]);
	add_null_twins(st);
	return 0;
}
