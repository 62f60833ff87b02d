// SPDX-License-Identifier: MIT
/*
 * run/calibrate_probes_counters: the cost table's entries beyond the monitors -- each
 * probe arming method's cost per hit at each site encoding (probes/plan.c on
 * the uprobe microbenchmark, the cheapest workload that hits a probe), and
 * each counter interface's cost per read (counters/measure.c).
 */
#include "run/calibrate.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/cleanup.h"
#include "core/env.h"
#include "core/proc.h"
#include "core/registry.h"
#include "counters/counters.h"
#include "probes/arm.h"
#include "probes/plan.h"
#include "probes/sdt.h"
#include "run/runner.h"
#include "stats/analyze.h"
#include "stats/stats.h"
#include "store/store.h"

/* The methods each level arms: quick the cheapest two, thorough every one with a probe site. */
static const char *const quick_methods[] = { "uprobe", "bpftrace" };
static const char *const no_site_methods[] = { "dormant", "lttng" };

static bool listed(const char *name, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name, v[i]))
			return true;
	return false;
}

/* --via for the plan (available methods), and unavailable entries for the others. */
static void choose_methods(const struct pcost_calibrate_opts *o, struct pcost_cost_table *t,
			   const char *sites, char *via, size_t len)
{
	struct pcost_list_row *rows;
	size_t n = pcost_probe_method_list_rows(&rows);

	via[0] = 0;
	for (size_t i = 0; i < n; i++) {
		const char *m = rows[i].name;

		if (listed(m, no_site_methods, ARRAY_SIZE(no_site_methods)) ||
		    (!o->thorough && !listed(m, quick_methods, ARRAY_SIZE(quick_methods))))
			continue;
		if (rows[i].available) {
			snprintf(via + strlen(via), len - strlen(via), "%s%s", *via ? "," : "", m);
			continue;
		}
		/* One entry a site it would have armed, with the reason. */
		{
			char *copy = xstrdup(sites), *save = NULL;

			for (char *s = strtok_r(copy, ",", &save); s;
			     s = strtok_r(NULL, ",", &save)) {
				char subject[96];
				struct pcost_cost_entry *e;

				snprintf(subject, sizeof(subject), "%s@%s", m, s);
				e = pcost_cost_add(t, subject, "probe", PCOST_CE_HIT, NULL, NULL);
				e->status = PCOST_COST_UNAVAILABLE;
				pcost_cost_why(e, "%s", rows[i].why);
			}
			free(copy);
		}
	}
	free(rows);
}

/* One probes session over the plan, measured and analyzed into entries. */
static int probe_entries(const struct pcost_calibrate_opts *o, struct pcost_cost_table *t,
			 struct pcost_probe_plan *pl, const struct pcost_probe_request *q,
			 const char *path, char *err, size_t len)
{
	struct pcost_sdt_list l = { 0 };
	struct pcost_session s;
	struct pcost_runner_opts ro;
	struct pcost_runner r;
	struct pcost_config_stats *st = NULL;
	int rc;

	pcost_session_init(&s, PCOST_SESSION_PROBES);
	s.started = (int64_t)time(NULL);
	s.cmdline = xstrdup(o->thorough ? "probecost calibrate --thorough" : "probecost calibrate");
	s.version = xstrdup(PCOST_VERSION);
	s.seed = o->seed;
	s.tsc_hz = pcost_tsc_hz();
	s.env_json = pcost_env_to_json_text(pcost_env_self());
	if ((rc = pcost_sdt_read(path, &l)) != 0) {
		snprintf(err, len, "'%s': %s", path, pcost_sdt_strerror(rc));
		rc = -EINVAL;
		goto out;
	}
	pcost_runner_opts_default(&ro);
	ro.cpu_mask = o->cpu_mask;
	ro.runs = o->runs ? o->runs : o->thorough ? 5 : 3;
	ro.warmup = o->warmup;
	ro.seed = o->seed;
	ro.timeout_s = 600;
	ro.progress = o->progress;
	ro.probed_binary = path;
	pcost_runner_init(&r, &s, &ro);
	pcost_probe_uprobe_set_cpus(ro.cpu_mask);
	if (pcost_probe_plan_build(q, pl, &l, path) != 0) {
		snprintf(err, len, "could not plan the probe measurements");
		rc = -EINVAL;
		goto out_runner;
	}
	for (size_t i = 0; i < pl->ncfg; i++)
		pcost_runner_add_probe(&r, &pl->cfg[i]);
	if ((rc = pcost_runner_check(&r, err, len)) < 0)
		goto out_runner;
	pcost_sink_begin(&s, o->db, o->no_store);
	rc = pcost_runner_measure(&r, err, len);
	s.complete = rc == 0 && !pcost_interrupted;
	pcost_sink_end(&s);
out_runner:
	pcost_runner_release(&r);
	if ((rc == 0 || rc == -EINTR) && pcost_analyze(&s, &st) == 0) {
		for (size_t i = 0; i < s.nconfigs; i++) {
			const struct pcost_config *c = &s.configs[i];
			char site[32], subject[96], wl[160];
			struct pcost_cost_entry *e;

			if (!strcmp(c->monitor, "dormant"))
				continue;
			snprintf(subject, sizeof(subject), "%s@%s", c->monitor,
				 pcost_config_site(c, site, sizeof(site)) ?: "?");
			snprintf(wl, sizeof(wl), "%s %s", c->workload, c->workload_args);
			e = pcost_cost_add(t, subject, "probe", PCOST_CE_HIT, wl,
					   "timed region per hit, against the dormant build");
			e->session_id = s.id;
			if (!st[i].nok || !isfinite(st[i].per_event_ns_lo)) {
				e->status = PCOST_COST_FAILED;
				pcost_cost_why(e, "%s",
					       st[i].per_event_why ? st[i].per_event_why
								   : "every run failed");
				continue;
			}
			e->status = PCOST_COST_MEASURED;
			e->ns = st[i].per_event_ns;
			e->lo = st[i].per_event_ns_lo;
			e->hi = st[i].per_event_ns_hi;
			e->df = st[i].npairs > 1 ? (double)st[i].npairs - 1 : NAN;
		}
	}
	free(st);
out:
	pcost_sdt_list_release(&l);
	pcost_session_release(&s);
	return rc;
}

int pcost_calibrate_probes(const struct pcost_calibrate_opts *o, struct pcost_cost_table *t,
			   char *err, size_t len)
{
	const char *sites = o->thorough ? "nop,nop5,nop10" : "nop,nop5";
	struct pcost_probe_request q = {
		.workload = "uprobe",
		.variants = "nop",
		.sites = sites,
		.scales = { 1 },
		.nscales = 1,
	};
	struct pcost_probe_plan *pl = xcalloc(1, sizeof(*pl));
	char via[256], path[PATH_MAX];
	int rc;

	choose_methods(o, t, sites, via, sizeof(via));
	q.via = via;
	if (!*via) {
		free(pl);
		return 0; /* every method unavailable: the entries say why */
	}
	if (pcost_probe_ftrace_reap_stale() < 0)
		warning("could not sweep the probes a killed probecost left");
	if (!realpath(pcost_self_exe(), path)) {
		snprintf(err, len, "cannot resolve the probecost binary's path: %s",
			 strerror(errno));
		free(pl);
		return -errno;
	}
	rc = pcost_probe_plan_shape(&q, pl);
	if (!rc)
		rc = probe_entries(o, t, pl, &q, path, err, len);
	else if (rc > 0) {
		snprintf(err, len, "could not plan the probe measurements");
		rc = -EINVAL;
	}
	pcost_probe_plan_release(pl);
	free(pl);
	return rc;
}

/* ---- counter interfaces ------------------------------------------------------------ */

/* Mean and standard error of a series; the "read" series of interface name. */
static const struct pcost_counter_series *series_of(const struct pcost_session *s,
						    const char *iface)
{
	for (size_t i = 0; i < s->nseries; i++)
		if (!strcmp(s->series[i].interface, iface) && !strcmp(s->series[i].op, "read") &&
		    s->series[i].n > 1)
			return &s->series[i];
	return NULL;
}

/*
 * Each interface's read, less the empty timed region (the timer's own cost):
 * Hodges-Lehmann estimates of both series, which a preemption on a shared
 * machine cannot drag (a mean of 1024 reads moves by microseconds for one),
 * their Wilcoxon intervals combined as independent normal ones.
 */
static void read_entries(const struct pcost_session *s, struct pcost_counter_slot *slots, size_t n,
			 unsigned iters, struct pcost_cost_table *t)
{
	const struct pcost_counter_series *empty = series_of(s, "empty");

	for (size_t i = 0; i < n; i++) {
		const struct pcost_counter_iface *ifc = slots[i].ifc;
		const struct pcost_counter_series *x = series_of(s, ifc->name);
		double hx, lx, ux, he, le, ue, se;
		char how[160];
		struct pcost_cost_entry *e;

		if (!ifc->takes_events)
			continue;
		snprintf(how, sizeof(how),
			 "%u timed reads of 1 event less the empty timed region (Hodges-Lehmann)",
			 iters);
		e = pcost_cost_add(t, ifc->name, "counter", PCOST_CE_READ, "counters k=1", how);
		e->session_id = s->id;
		if (slots[i].rc < 0 || !x || !empty) {
			e->status = PCOST_COST_FAILED;
			pcost_cost_why(e, "%s", slots[i].rc < 0 ? slots[i].why : "no read series");
			continue;
		}
		pcost_hodges_lehmann(x->ns, x->n, PCOST_CONF, &hx, &lx, &ux);
		pcost_hodges_lehmann(empty->ns, empty->n, PCOST_CONF, &he, &le, &ue);
		if (!isfinite(hx) || !isfinite(lx) || !isfinite(he) || !isfinite(le)) {
			e->status = PCOST_COST_FAILED;
			pcost_cost_why(e, "no interval for %zu reads", x->n);
			continue;
		}
		se = sqrt(pow((ux - lx) / 2 / 1.959964, 2) + pow((ue - le) / 2 / 1.959964, 2));
		e->status = PCOST_COST_DERIVED;
		e->ns = hx - he;
		e->lo = e->ns - 1.959964 * se;
		e->hi = e->ns + 1.959964 * se;
		e->df = NAN; /* large samples: the normal quantile */
	}
}

int pcost_calibrate_counters(const struct pcost_calibrate_opts *o, struct pcost_cost_table *t)
{
	const struct pcost_env *env = pcost_env_self();
	const struct pcost_counter_iface *ifc;
	struct pcost_counter_slot slots[16] = { 0 };
	struct pcost_counter_plan plan;
	struct pcost_timer timer;
	struct pcost_session s;
	char *names[1] = { NULL };
	size_t n = 0;
	cpu_set_t saved;

	pcost_counter_timer_init(&timer, false);
	/* Hodges-Lehmann sorts every Walsh average: 2000 values at most (stats.h). */
	plan = (struct pcost_counter_plan){ .iterations = o->thorough ? 2000 : 1024,
					    .warmup = 64,
					    .timer = &timer };
	if (pcost_counter_probe_kernel() == 1)
		pcost_counter_set_user_only(true);
	if (pcost_counter_default_events(env->pmu, 1, names) < 0)
		return -EINVAL;
	pcost_session_init(&s, PCOST_SESSION_COUNTERS);
	s.started = (int64_t)time(NULL);
	s.cmdline = xstrdup(o->thorough ? "probecost calibrate --thorough" : "probecost calibrate");
	s.version = xstrdup(PCOST_VERSION);
	s.env_json = pcost_env_to_json_text(env);
	s.tsc_hz = timer.tsc_hz;
	for_each_counter_iface(ifc) {
		char why[512] = "";

		if (ifc->available(why, sizeof(why))) {
			if ((ifc->takes_events || !strcmp(ifc->name, "empty")) &&
			    n < ARRAY_SIZE(slots))
				slots[n++].ifc = ifc;
		} else if (ifc->takes_events) {
			struct pcost_cost_entry *e =
				pcost_cost_add(t, ifc->name, "counter", PCOST_CE_READ, NULL, NULL);

			e->status = PCOST_COST_UNAVAILABLE;
			pcost_cost_why(e, "%s", why);
		}
	}
	sched_getaffinity(0, sizeof(saved), &saved);
	if (o->cpu_mask)
		pcost_pin_mask(o->cpu_mask);
	pcost_sink_begin(&s, o->db, o->no_store);
	/* The interfaces with 1 event, then the empty region alone (no events). */
	for (int pass = 0; pass < 2; pass++) {
		struct pcost_counter_slot *v = xcalloc(n ? n : 1, sizeof(*v));
		size_t m = 0, before = s.nseries;

		for (size_t i = 0; i < n; i++)
			if (slots[i].ifc->takes_events == !pass)
				v[m++].ifc = slots[i].ifc;
		if (m && !pcost_interrupted)
			pcost_counter_measure_set(v, m, pass ? NULL : (const char *const *)names,
						  pass ? 0 : 1, &plan, &s);
		for (size_t i = 0, j = 0; i < n; i++)
			if (slots[i].ifc->takes_events == !pass)
				slots[i] = v[j++];
		for (size_t j = before; j < s.nseries; j++)
			pcost_sink_series(&s, j);
		free(v);
	}
	s.complete = !pcost_interrupted;
	pcost_sink_end(&s);
	sched_setaffinity(0, sizeof(saved), &saved);
	pcost_counter_papi_shutdown();
	read_entries(&s, slots, n, plan.iterations, t);
	free(names[0]);
	pcost_session_release(&s);
	return pcost_interrupted ? -EINTR : 0;
}
