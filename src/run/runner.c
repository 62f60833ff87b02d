// SPDX-License-Identifier: MIT
/*
 * runner: interleaved shuffled blocks (hyperfine-style runs, but paired per
 * block so drift cancels in the overhead ratios), warm-up, hang limits,
 * adaptive stopping; each run is one pcost_run_once() of spawn.c.
 */
#include "run/runner.h"
#include "run/busy.h"
#include "run/figure_values.h"
#include "run/outcheck.h"
#include "run/service.h"
#include "run/spawn.h"
#include "run/verdict.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "stats/analyze.h"
#include "stats/rerun.h"
#include "core/cleanup.h"
#include "core/journal.h"
#include "core/lock.h"
#include "core/tracefs.h"
#include "probes/plan.h"
#include "store/store.h"
#include "workloads/workload.h"

extern char **environ;

struct pcost_runner_slot {
	struct pcost_monitor *mon;
	struct pcost_target t; /* argv owned (a copy); its strings are the caller's: use the
				 * session's config for them */
	char **argv;
	size_t config; /* index in the session */
	bool dropped;  /* prepare failed, or every run so far failed */
	unsigned nfail, nrun;
	char note[256]; /* the monitor's last note ("lost 12 events"), "" */
	unsigned nnotes;
	size_t med_n; /* samples when med_s was computed */
	double med_s; /* median wall time of the successful runs, NAN */
};

void pcost_runner_opts_default(struct pcost_runner_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->timeout_s = 0;
	o->ready_timeout_s = 10;
	o->warmup = 1;
	o->runs = 0;
	o->min_runs = 10;
	/* +-2 points, or 5% of the overhead where that is wider: strace at +658% on
	 * git status (README) is asked +-33 points; +-2 would ask ~100,000 blocks. */
	o->precision = 0.02;
	o->precision_rel = 0.05;
	o->max_time_s = 60;
	o->max_failures = 2;
	o->seed = 1;
}

void pcost_runner_init(struct pcost_runner *r, struct pcost_session *s,
		       const struct pcost_runner_opts *o)
{
	memset(r, 0, sizeof(*r));
	r->s = s;
	r->opts = *o;
	s->seed = o->seed;
}

int pcost_runner_add(struct pcost_runner *r, struct pcost_monitor *m, const struct pcost_target *t)
{
	struct pcost_runner_slot *sl;
	struct pcost_config *c;

	xgrow((void **)&r->slots, &r->cap, r->nslots + 1, sizeof(*r->slots));
	sl = &r->slots[r->nslots];
	memset(sl, 0, sizeof(*sl));
	sl->mon = m;
	sl->t = *t;
	sl->argv = pcost_argv_dup(t->argv);
	sl->t.argv = sl->argv;
	if (sl->t.scale <= 0)
		sl->t.scale = 1;
	c = pcost_session_add_config(r->s, t->workload, t->workload_args, m->name, t->variant,
				     t->unit);
	c->threads = t->threads;
	c->placement = t->placement ? xstrdup(t->placement) : NULL;
	sl->config = (size_t)(c - r->s->configs);
	r->nslots++;
	return (int)sl->config;
}

int pcost_runner_add_probe(struct pcost_runner *r, const struct pcost_probe_config *c)
{
	struct pcost_target t = { .workload = c->workload,
				  .workload_args = c->args,
				  .variant = c->variant,
				  .unit = "hit",
				  .argv = c->argv,
				  .scale = c->scale,
				  .events = c->events,
				  .report_fd = c->report_fd };
	int idx = pcost_runner_add(r, c->mon, &t);

	/* add() may move the session's configs: index them after the call. */
	r->s->configs[idx].expected_events = c->expected;
	return idx;
}

/* ---- blocks ------------------------------------------------------------------ */

/* The plain (baseline) configuration of the same target as sl, NULL when none. */
static struct pcost_runner_slot *baseline_of(struct pcost_runner *r,
					     const struct pcost_runner_slot *sl)
{
	/* The session's copies: the target's strings belong to the caller. */
	const struct pcost_config *c = &r->s->configs[sl->config];

	for (size_t i = 0; i < r->nslots; i++) {
		struct pcost_runner_slot *b = &r->slots[i];
		const struct pcost_config *bc = &r->s->configs[b->config];

		if (b->mon->ops->kind == PCOST_MON_BASELINE && b->t.scale == sl->t.scale &&
		    !strcmp(bc->workload, c->workload) &&
		    !strcmp(bc->workload_args ?: "", c->workload_args ?: "") &&
		    !strcmp(bc->variant ?: "", c->variant ?: ""))
			return b;
	}
	return NULL;
}

static int cmp_ns(const void *a, const void *b)
{
	pcost_ns x = *(const pcost_ns *)a, y = *(const pcost_ns *)b;

	return x < y ? -1 : x > y;
}

/* Median wall time of a configuration's successful runs (s), NAN when none yet. */
static double median_wall_s(const struct pcost_config *c)
{
	pcost_ns *v = xcalloc(c->nsamples ? c->nsamples : 1, sizeof(*v));
	size_t n = 0;
	double med = NAN;

	for (size_t i = 0; i < c->nsamples; i++)
		if (!c->samples[i].failed)
			v[n++] = c->samples[i].wall_ns;
	if (n) {
		size_t mid = n / 2;

		qsort(v, n, sizeof(*v), cmp_ns);
		med = (n % 2 ? (double)v[mid] : ((double)v[mid - 1] + (double)v[mid]) / 2) / 1e9;
	}
	free(v);
	return med;
}

/* A slot's median wall time of its successful runs (s), NAN when none; cached. */
static double slot_median_s(struct pcost_runner *r, struct pcost_runner_slot *sl)
{
	const struct pcost_config *c = &r->s->configs[sl->config];

	/* Sorted again only when the configuration has new samples. */
	if (sl->med_n != c->nsamples || !c->nsamples) {
		sl->med_s = median_wall_s(c);
		sl->med_n = c->nsamples;
	}
	return sl->med_s;
}

/*
 * The default limit of a monitored run without --timeout (0: none): 10 x the
 * median of the slower of its plain runs and its own runs so far (its warm-up
 * first) + 10 s.  Its first run, of a monitor nothing is known about yet, may
 * take PCOST_HANG_FIRST_FACTOR x the plain median + 10 s: a slow monitor is not
 * a hung one (strace slows a getppid loop by two orders of magnitude).  While
 * that first run keeps using the CPU the limit is given again, up to
 * PCOST_HANG_BUSY_EXTEND times (unpinned, strace's slowdown varies by an order
 * of magnitude from run to run: bench/results/harness.md).
 */
static double hang_limit_s(struct pcost_runner *r, struct pcost_runner_slot *sl)
{
	struct pcost_runner_slot *b;
	double plain, own;

	if (sl->mon->ops->kind == PCOST_MON_BASELINE || !(b = baseline_of(r, sl)))
		return 0;
	plain = slot_median_s(r, b);
	if (isnan(plain))
		return 0;
	if (!r->s->configs[sl->config].nsamples)
		return PCOST_HANG_FIRST_FACTOR * plain + PCOST_HANG_GRACE_S;
	own = slot_median_s(r, sl);
	return PCOST_HANG_FACTOR * (own > plain ? own : plain) + PCOST_HANG_GRACE_S;
}

/* Has configuration c a successful run? */
static bool has_ok_run(const struct pcost_config *c)
{
	for (size_t i = 0; i < c->nsamples; i++)
		if (!c->samples[i].failed)
			return true;
	return false;
}

/*
 * pcost_run_once under --timeout, or under the default limit of a hung
 * monitor; started on cpu_mask (0: --cpu's).
 */
static int run_limited(struct pcost_runner *r, struct pcost_runner_slot *sl,
		       const struct pcost_launch *l, struct pcost_run_sample *smp,
		       struct pcost_run_said *said, uint64_t cpu_mask, struct pcost_run_output *out)
{
	struct pcost_runner_opts o = r->opts;
	bool dflt = o.timeout_s <= 0, first = !r->s->configs[sl->config].nsamples;
	int rc;

	if (cpu_mask)
		o.cpu_mask = cpu_mask;
	/* A load generator left waiting on a service that died is stopped. */
	o.watch_pid = r->opts.service ? pcost_service_pid(r->opts.service) : 0;
	if (dflt)
		o.timeout_s = hang_limit_s(r, sl);
	if (dflt && first)
		o.busy_extend = PCOST_HANG_BUSY_EXTEND;
	rc = pcost_run_capture(l, &o, sl->t.report_fd, smp, said, out);
	if (dflt && o.timeout_s > 0 && smp->failed && !strncmp(smp->fail_reason, "timeout", 7)) {
		/* Killed at a deadline: the limit, or a multiple of it where it was extended. */
		double stretches = floor((double)smp->wall_ns / 1e9 / o.timeout_s + 0.5);
		char more[96] = "";

		if (stretches < 1)
			stretches = 1;
		if (stretches > 1)
			snprintf(more, sizeof(more),
				 ", given again %.0f time%s while it used the CPU", stretches - 1,
				 stretches > 2 ? "s" : "");
		pcost_sample_fail(
			smp,
			"hung: killed after %.1f s (%d x the median of %s + %d s%s; --timeout "
			"sets the limit)",
			o.timeout_s * stretches,
			first ? PCOST_HANG_FIRST_FACTOR : PCOST_HANG_FACTOR,
			first ? "the plain runs, on its first run" : "its own or the plain runs",
			PCOST_HANG_GRACE_S, more);
	}
	return rc;
}

/*
 * --washout: opts.washout runs of sl's target plain (its command as no monitor
 * wraps it, on --cpu, output to /dev/null, PROBECOST_WASHOUT=1 in its
 * environment), measured by nobody: a washout run that fails is not reported.
 * -EINTR on Ctrl-C.
 */
static int washout(struct pcost_runner *r, struct pcost_runner_slot *sl)
{
	struct pcost_runner_opts o = r->opts;

	o.watch_pid = r->opts.service ? pcost_service_pid(r->opts.service) : 0;
	if (o.timeout_s <= 0)
		o.timeout_s = hang_limit_s(r, sl);
	for (unsigned i = 0; i < r->opts.washout && !pcost_interrupted; i++) {
		struct pcost_run_sample smp = { .monitor_events = -1, .event_syscall = -1 };
		struct pcost_run_said said = { 0 };
		struct pcost_run_output out = { .capture = false };
		struct pcost_launch l;

		pcost_launch_init(&l, sl->argv);
		pcost_launch_setenv(&l, "PROBECOST_WASHOUT", "1");
		pcost_run_capture(&l, &o, sl->t.report_fd, &smp, &said, &out);
		pcost_launch_release(&l);
		free(out.buf);
	}
	return pcost_interrupted ? -EINTR : 0;
}

/*
 * start() with probecost itself on mask (0: as it is) for the moment, so the
 * helper processes an attach monitor forks inherit it; ours is put back.
 */
static int start_placed(struct pcost_monitor *m, uint64_t mask, pcost_ns timeout_ns, char *err,
			size_t len)
{
	cpu_set_t saved;
	bool pin = mask && sched_getaffinity(0, sizeof(saved), &saved) == 0;
	int rc;

	if (pin)
		pcost_pin_mask(mask);
	rc = m->ops->start(m, timeout_ns, err, len);
	if (pin)
		sched_setaffinity(0, sizeof(saved), &saved);
	return rc;
}

/* ---- the service -------------------------------------------------------------- */

/* Its tree's CPU time around one run. */
struct service_cpu {
	bool ok[2];
	pcost_ns user[2], sys[2];
};

static void service_cpu_read(struct pcost_runner *r, struct service_cpu *c, int k)
{
	if (!k)
		memset(c, 0, sizeof(*c));
	c->ok[k] = r->opts.service && pcost_service_cpu(r->opts.service, &c->user[k], &c->sys[k]);
}

static void service_cpu_fill(const struct service_cpu *c, struct pcost_run_sample *smp)
{
	if (!c->ok[0] || !c->ok[1])
		return;
	smp->has_service = true;
	smp->service_user_ns = c->user[1] > c->user[0] ? c->user[1] - c->user[0] : 0;
	smp->service_sys_ns = c->sys[1] > c->sys[0] ? c->sys[1] - c->sys[0] : 0;
}

/* Before a run: the monitor gets the service's pid; false (the run failed) once it is gone. */
static bool service_before(struct pcost_runner *r, struct pcost_monitor *m,
			   struct pcost_run_sample *smp)
{
	struct pcost_service *sv = r->opts.service;

	m->service_pid = sv ? pcost_service_pid(sv) : 0;
	if (!sv)
		return true;
	if (!r->service_gone && pcost_service_alive(sv, r->service_why, sizeof(r->service_why)))
		return true;
	r->service_gone = true;
	smp->wait_status = -1;
	pcost_sample_fail(smp, "the service had exited (%s)", r->service_why);
	return false;
}

/* After a run: the service died during it: the run failed, whatever it said. */
static void service_after(struct pcost_runner *r, struct pcost_run_sample *smp)
{
	if (!r->opts.service || r->service_gone ||
	    pcost_service_alive(r->opts.service, r->service_why, sizeof(r->service_why)))
		return;
	r->service_gone = true;
	pcost_sample_fail(smp, "the service exited during the run (%s)", r->service_why);
}

/* Before a block: the service started again when it is per block (not before the first). */
static int service_block(struct pcost_runner *r, unsigned block, char *err, size_t len)
{
	struct pcost_service *sv = r->opts.service;
	char why[400];
	int rc;

	if (!sv || !sv->o.restart_per_block || block == 0 || r->service_gone)
		return 0;
	if ((rc = pcost_service_restart(sv, why, sizeof(why))) < 0) {
		if (rc == -EINTR)
			return rc;
		snprintf(err, len, "before block %u: %s", block, why);
	}
	return rc;
}

/* Runs capture their output: figures are parsed from it. */
static bool captures(const struct pcost_runner *r)
{
	return r->opts.metric_set && pcost_figures_set_size(r->opts.metric_set);
}

/*
 * --check-output, after sl's run: a plain run that ended well adds its output
 * to its target's; another one is compared with them (how it differs into
 * why).  d is released.
 */
static void check_output(struct pcost_runner *r, struct pcost_runner_slot *sl,
			 const struct pcost_run_sample *smp, struct pcost_outdigest *d, char *why,
			 size_t len)
{
	struct pcost_runner_slot *b = baseline_of(r, sl);

	if (b && !smp->failed && b == sl)
		pcost_outcheck_plain(r->outcheck, b->config, d);
	else if (b && !smp->failed)
		pcost_outcheck_differs(r->outcheck, b->config, d,
				       r->s->kind == PCOST_SESSION_PROBES ? "dormant" : "plain",
				       why, len);
	pcost_outdigest_release(d);
}

static int run_slot(struct pcost_runner *r, struct pcost_runner_slot *sl, unsigned block,
		    unsigned order, bool warmup)
{
	struct pcost_config *c = &r->s->configs[sl->config];
	struct pcost_monitor *m = sl->mon;
	struct pcost_run_sample smp;
	struct pcost_run_said said = { 0 };
	struct pcost_verdict_in v = { .kind = m->ops->kind,
				      .monitor = m->name,
				      .report_fd = sl->t.report_fd,
				      .expected = c->expected_events,
				      .program = sl->argv[0],
				      .said = &said };
	struct pcost_cpu_times cpu0, cpu1;
	struct pcost_launch l;
	char err[160] = "";
	int rc = 0, started = -1;
	bool placed = sl->t.monitor_cpu_mask && r->opts.cpu_mask;
	uint64_t spawn_mask = 0;
	struct pcost_run_output out = { .capture = captures(r) };
	struct service_cpu svc;
	struct pcost_outdigest dg;

	memset(&smp, 0, sizeof(smp));
	smp.block = block;
	smp.order = order;
	smp.warmup = warmup;
	smp.scale = sl->t.scale;
	smp.monitor_events = -1;
	smp.event_syscall = -1;
	m->note[0] = 0;
	pcost_launch_init(&l, sl->argv);
	/* A built-in workload checks its own result. */
	if (r->outcheck && !sl->t.report_fd) {
		pcost_outdigest_init(&dg, r->outcheck);
		out.digest = &dg;
	}
	if (r->sub.pad)
		pcost_launch_setenv(&l, PCOST_RERUN_PAD_ENV, r->sub.pad);
	if (!service_before(r, m, &smp))
		goto record;
	if (m->ops->wrap && (rc = m->ops->wrap(m, &l)) < 0) {
		pcost_sample_fail(&smp, "monitor %s could not wrap the command: %s", m->name,
				  strerror(-rc));
		v.tool_failed = true;
		goto record;
	}
	if (m->ops->wrap)
		pcost_verdict_wrapper(&v, l.argv);
	if (placed) {
		/* The tracer starts on its CPUs; the workload moves itself to opts.cpu_mask. */
		char cpus[256];

		pcost_format_cpumask(r->opts.cpu_mask, cpus, sizeof(cpus));
		pcost_launch_setenv(&l, PCOST_WORKLOAD_CPUS_ENV, cpus);
		if (m->ops->wrap)
			spawn_mask = sl->t.monitor_cpu_mask;
	}
	if (m->ops->start) {
		pcost_ns to =
			(pcost_ns)((r->opts.ready_timeout_s > 0 ? r->opts.ready_timeout_s : 10) *
				   1e9);

		started =
			start_placed(m, placed ? sl->t.monitor_cpu_mask : 0, to, err, sizeof(err));
		if (started < 0) {
			if (started == -EINTR || pcost_interrupted)
				pcost_sample_fail(&smp, "interrupted");
			else if (started == -ETIMEDOUT)
				pcost_sample_fail(&smp, "monitor not ready after %g s%s%s",
						  r->opts.ready_timeout_s, err[0] ? ": " : "", err);
			else
				pcost_sample_fail(&smp, "monitor did not start: %s",
						  err[0] ? err : strerror(-started));
			v.tool_failed = true;
			goto stop;
		}
	}
	service_cpu_read(r, &svc, 0);
	pcost_cpu_times_read(r->opts.cpu_mask, &cpu0);
	rc = run_limited(r, sl, &l, &smp, &said, spawn_mask, &out);
	pcost_cpu_times_read(r->opts.cpu_mask, &cpu1);
	service_cpu_read(r, &svc, 1);
	service_cpu_fill(&svc, &smp);
	pcost_busy_fill(&cpu0, &cpu1, &smp);
stop:
	if (m->ops->stop) {
		bool was_failed = smp.failed;
		int src = m->ops->stop(m, &smp);

		if (src < 0 && !smp.failed)
			pcost_sample_fail(&smp, "monitor %s failed: %s", m->name, strerror(-src));
		/* Failed by stop(): the monitor's own failure (did not stop, printed no count). */
		v.tool_failed |= !was_failed && smp.failed;
		if (m->note[0]) {
			snprintf(sl->note, sizeof(sl->note), "%s", m->note);
			snprintf(smp.note, sizeof(smp.note), "%s", m->note);
			sl->nnotes++;
		}
	}
record:
	pcost_launch_release(&l);
	if (said.unit[0] && (!c->unit || strcmp(c->unit, said.unit))) {
		free(c->unit);
		c->unit = xstrdup(said.unit);
	}
	if (rc == -EINTR || pcost_interrupted) {
		free(out.buf);
		if (out.digest)
			pcost_outdigest_release(out.digest);
		return -EINTR; /* an interrupted run is not a measurement */
	}
	service_after(r, &smp);
	/* --metric reads the user's command; a built-in's figures come on its report line. */
	pcost_figures_extract(
		r->s, c->workload && !strcmp(c->workload, "command") ? r->opts.metric_set : NULL,
		out.buf, out.len, out.report, &smp);
	free(out.buf);
	if (out.digest)
		check_output(r, sl, &smp, out.digest, v.output, sizeof(v.output));
	pcost_run_verdict(&smp, &v);
	if (!smp.has_report && sl->t.events >= 0)
		smp.events = (uint64_t)sl->t.events;
	pcost_config_add_sample(c, &smp);
	sl->nrun++;
	if (smp.failed)
		sl->nfail++;
	if (sl->nfail == sl->nrun && sl->nfail >= (r->opts.max_failures ? r->opts.max_failures : 2))
		sl->dropped = true;
	return 0;
}

static void progress(struct pcost_runner *r, unsigned measured, bool done)
{
	double el = (double)(pcost_now_ns() - r->started_ns) / 1e9, frac;
	char bar[31];
	int fill;

	if (!r->opts.progress)
		return;
	if (r->opts.runs)
		frac = (double)r->blocks_done / (double)(r->opts.runs + r->opts.warmup);
	else
		frac = r->opts.max_time_s > 0 ? el / r->opts.max_time_s : 0;
	if (frac > 1)
		frac = 1;
	fill = (int)(frac * 30);
	memset(bar, ' ', 30);
	memset(bar, '=', (size_t)fill);
	bar[30] = 0;
	if (frac > 0.01 && !done)
		fprintf(stderr, "\r  [%s] block %u, %u measured, %.0f s, ETA %.0f s   ", bar,
			r->blocks_done, measured, el, el / frac - el);
	else
		fprintf(stderr, "\r  [%s] block %u, %u measured, %.0f s            ", bar,
			r->blocks_done, measured, el);
	if (done)
		fprintf(stderr, "\r%*s\r", 78, "");
	fflush(stderr);
}

/*
 * The adaptive design (stats/twostage.c): after the pilot of min_runs blocks,
 * plan once how many blocks the precision asked needs, within max_runs and
 * the blocks that fit in what is left of max_time at the pilot's pace
 * (pilot_s: the measured blocks' time so far); never fewer than measured.
 * With opts.pilot_apart and room for as many blocks again, those blocks are a
 * second sample of their own, at least as large as the pilot; without that
 * room, it runs to the cap.
 */
static unsigned plan_blocks(struct pcost_runner *r, unsigned measured, double pilot_s, double el)
{
	struct pcost_config_stats *st = NULL;
	double need = measured, cap = r->opts.max_runs ? r->opts.max_runs : INFINITY;

	if (pcost_analyze(r->s, &st) == 0)
		need = pcost_two_stage_blocks(r->s, st, r->opts.precision, r->opts.precision_rel,
					      r->opts.precision_dormant_ns);
	free(st);
	if (r->opts.max_time_s > 0 && pilot_s > 0)
		cap = fmin(cap, measured + floor((r->opts.max_time_s - el) / (pilot_s / measured)));
	if (r->opts.pilot_apart && cap >= 2.0 * measured) {
		r->pilot_apart = measured;
		need = measured + fmax(need, measured);
	} else if (r->opts.pilot_apart) {
		/*
		 * No room for a second sample as large as the pilot: the pilot stays in.
		 * A count planned from the pilot's own variance and pooled with it loses
		 * coverage (simulated: 0.944, 0.840 with a level between stretches),
		 * since the stop then depends on the data it is analysed with; the
		 * count the time or --max-runs allows does not.
		 */
		need = cap;
	}
	need = fmin(fmax(need, measured), cap);
	return !(need > measured) ? measured : need > UINT_MAX ? UINT_MAX : (unsigned)ceil(need);
}

/*
 * A second stage that ran as large as the pilot: the pilot's blocks leave the
 * figures (flagged warm-up; options "pilot_blocks" says how many).  Cut short
 * (--max-time at a slower pace), the pilot stays in.
 */
/* The session's option key set to item (taken over), in place of what it held. */
static void option_set(struct pcost_session *s, const char *key, cJSON *item)
{
	cJSON *o = s->options_json ? cJSON_Parse(s->options_json) : cJSON_CreateObject();

	if (!o) {
		cJSON_Delete(item);
		return;
	}
	cJSON_DeleteItemFromObjectCaseSensitive(o, key);
	cJSON_AddItemToObject(o, key, item);
	free(s->options_json);
	s->options_json = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
}

static void set_pilot_apart(struct pcost_runner *r, unsigned measured)
{
	unsigned from = r->opts.warmup, to = from + r->pilot_apart;

	if (!r->pilot_apart || measured < 2 * r->pilot_apart) {
		r->pilot_apart = 0;
		return;
	}
	for (size_t i = 0; i < r->s->nconfigs; i++)
		for (size_t k = 0; k < r->s->configs[i].nsamples; k++) {
			struct pcost_run_sample *x = &r->s->configs[i].samples[k];

			if (x->block >= from && x->block < to)
				x->warmup = true;
		}
	option_set(r->s, "pilot_blocks", cJSON_CreateNumber(r->pilot_apart));
}

/*
 * Without --timeout, a monitored run's limit comes from its plain run's
 * median: while a plain configuration has no successful run yet, the plain
 * runs of the block go first (stable: the shuffled order is kept otherwise).
 */
static void baselines_first(const struct pcost_runner *r, size_t *order, size_t n)
{
	size_t *tmp = xcalloc(n, sizeof(*tmp)), k = 0;
	bool need = false;

	for (size_t i = 0; i < n; i++) {
		const struct pcost_runner_slot *sl = &r->slots[order[i]];

		need |= sl->mon->ops->kind == PCOST_MON_BASELINE &&
			!has_ok_run(&r->s->configs[sl->config]);
	}
	for (int pass = 0; need && pass < 2; pass++)
		for (size_t i = 0; i < n; i++)
			if ((r->slots[order[i]].mon->ops->kind == PCOST_MON_BASELINE) ==
			    (pass == 0))
				tmp[k++] = order[i];
	if (need)
		memcpy(order, tmp, n * sizeof(*order));
	free(tmp);
}

/* Every binary a configuration runs (argv[0] resolved) and the probed one. */
static size_t session_binaries(const struct pcost_runner *r, char (*bins)[PATH_MAX], size_t max)
{
	size_t n = 0;

	if (r->opts.probed_binary && n < max)
		snprintf(bins[n++], PATH_MAX, "%s", r->opts.probed_binary);
	for (size_t i = 0; i < r->nslots && n < max; i++) {
		const char *a0 = r->slots[i].argv[0];

		if (strchr(a0, '/'))
			snprintf(bins[n++], PATH_MAX, "%s", a0);
		else if (pcost_which(a0, bins[n], PATH_MAX))
			n++;
	}
	return n;
}

/* The lock is held until we exit: it is released only once everything is disarmed. */
int pcost_session_lock(const char *kind, bool no_wait, char *err, size_t len)
{
	const struct timespec tick = { 0, 100 * 1000 * 1000 };
	char holder[256] = "";
	bool said = false;
	int fd;

	while ((fd = pcost_lock_try(kind, holder, sizeof(holder))) == -EWOULDBLOCK) {
		if (no_wait || pcost_interrupted) {
			snprintf(err, len, "another %s session runs (%s): %s", kind, holder,
				 pcost_interrupted ? "interrupted while waiting for it"
						   : "its armed probes would add to this one's "
						     "counts and times; wait for it to end, or run "
						     "without --no-wait");
			return pcost_interrupted ? -EINTR : -EBUSY;
		}
		if (!said)
			warning("waiting for the %s session of %s to end (armed probes would add to "
				"each other's counts and times; --no-wait refuses instead)",
				kind, holder);
		said = true;
		nanosleep(&tick, NULL);
	}
	if (fd < 0)
		snprintf(err, len, "cannot take the %s session lock in '%s': %s", kind,
			 pcost_state_dir(), strerror(-fd));
	return fd < 0 ? fd : 0;
}

int pcost_runner_check(struct pcost_runner *r, char *err, size_t len)
{
	char(*bins)[PATH_MAX] = xcalloc(r->nslots + 1, PATH_MAX);
	const char **names = xcalloc(r->nslots + 1, sizeof(*names));
	char why[512];
	unsigned swept;
	bool syscalls = false, foreign;
	size_t n;
	int other = 0, rc;

	if (r->checked)
		goto out;
	if ((rc = pcost_journal_open(&swept, err, len)) < 0)
		goto out_rc;
	if (swept)
		warning("undid %u change%s left by a probecost that was killed (processes, probe "
			"events, trace instances, temporary files)",
			swept, swept == 1 ? "" : "s");
	if (r->opts.exclusive &&
	    (rc = pcost_session_lock(r->opts.exclusive, r->opts.no_wait, err, len)) < 0)
		goto out_rc;
	pcost_tracefs_begin();
	n = session_binaries(r, bins, r->nslots + 1);
	for (size_t i = 0; i < n; i++)
		names[i] = bins[i];
	for (size_t i = 0; i < r->nslots; i++)
		syscalls |= !strcmp(r->s->configs[r->slots[i].config].workload, "syscall");
	foreign = !getenv("PROBECOST_ALLOW_TRACERS") &&
		  pcost_foreign_tracer(names, n, syscalls, &other, why, sizeof(why));
	if (foreign) {
		snprintf(
			err, len,
			"a tracer that is not this probecost's is armed on what it would "
			"measure: %s; stop it (or set PROBECOST_ALLOW_TRACERS=1 to measure anyway)",
			why);
		rc = -EBUSY;
		goto out_rc;
	}
	if (other)
		warning("another probecost (pid %d) is tracing at the same time: its tracers add to "
			"these measurements",
			other);
	r->checked = true;
out:
	rc = 0;
out_rc:
	free(bins);
	free(names);
	return rc;
}

/* prepare() once per distinct monitor instance, in the order given; a failure drops
 * its configurations with the reason in a failed sample. */
static void prepare_all(struct pcost_runner *r)
{
	for (size_t i = 0; i < r->nslots; i++) {
		struct pcost_monitor *m = r->slots[i].mon;
		bool seen = false;
		char why[256] = "";
		int prc = 0;

		for (size_t j = 0; j < i; j++)
			seen |= r->slots[j].mon == m;
		if (seen || !m->ops->prepare) {
			for (size_t j = 0; j < i && seen; j++)
				if (r->slots[j].mon == m && r->slots[j].dropped)
					r->slots[i].dropped = true;
		} else if ((prc = m->ops->prepare(m, why, sizeof(why))) < 0) {
			r->slots[i].dropped = true;
		}
		if (r->slots[i].dropped) {
			struct pcost_run_sample smp;

			memset(&smp, 0, sizeof(smp));
			smp.wait_status = -1;
			smp.monitor_events = -1;
			smp.scale = r->slots[i].t.scale;
			pcost_sample_fail(&smp, "monitor %s could not be prepared: %s", m->name,
					  why[0] ? why : strerror(-prc));
			smp.fault = PCOST_FAULT_TOOL;
			pcost_config_add_sample(&r->s->configs[r->slots[i].config], &smp);
		}
	}
}

/*
 * Adaptive: the pilot (warm-up and --min-runs blocks) runs whole whatever
 * --max-time says.  When its first blocks show that it will take more than twice
 * that, say so once, with the time it will take and the ways out: -w syscall's
 * 10,000,000 calls under strace take minutes a run.
 */
static void tell_long_pilot(struct pcost_runner *r, bool *told)
{
	unsigned pilot = r->opts.warmup + (r->opts.min_runs ? r->opts.min_runs : 2);
	double el = (double)(pcost_now_ns() - r->started_ns) / 1e9, left;

	if (*told || r->opts.runs || r->opts.max_time_s <= 0 || r->blocks_done >= pilot)
		return;
	left = el / r->blocks_done * (pilot - r->blocks_done);
	if (el + left <= 2 * r->opts.max_time_s)
		return;
	*told = true;
	if (r->opts.progress)
		fputc('\n', stderr); /* below the progress bar's line, not on it */
	warning("a block takes %.*f s here: the pilot of %u blocks runs whole, about %.*f %s "
		"more, past --max-time %g s; Ctrl-C prints what was measured so far, or give "
		"--runs N or a smaller workload",
		el / r->blocks_done < 10 ? 1 : 0, el / r->blocks_done, pilot, left < 10 ? 1 : 0,
		left > 300 ? left / 60 : left, left > 300 ? "min" : "s", r->opts.max_time_s);
}

/* ---- sub-sessions (stats/rerun.h) --------------------------------------------- */

/*
 * A stage of total measured blocks from measured block base: k sub-sessions of
 * at least PCOST_RERUN_SUB_BLOCKS blocks where there are enough, never fewer than
 * PCOST_RERUN_MIN_SUBS (the default study's 10 blocks: 5 of 2), nor more than the
 * blocks.
 */
static void sub_stage(struct pcost_runner *r, unsigned base, unsigned total)
{
	unsigned k = total / PCOST_RERUN_SUB_BLOCKS;

	k = k < PCOST_RERUN_MIN_SUBS ? PCOST_RERUN_MIN_SUBS : k;
	k = k > PCOST_RERUN_MAX_SUBS ? PCOST_RERUN_MAX_SUBS : k;
	r->sub.k = k < total ? k : total ? total : 1;
	r->sub.base = base;
	r->sub.total = total ? total : 1;
	r->sub.cur = -1;
}

/*
 * Before measured block `block` (the measured-th): where a new sub-session starts,
 * a fresh launch: after a pause (its level is drawn again), in an environment of
 * another size (stack and heap start elsewhere, as Stabilizer and Kalibera and
 * Jones vary it).  Each run is a fresh process with its own ASLR layout, and each
 * monitor is started again for it, in every block.  -EINTR on Ctrl-C.
 */
static int sub_before(struct pcost_runner *r, unsigned block, unsigned measured)
{
	const struct timespec pause = { 0, PCOST_RERUN_PAUSE_MS * 1000L * 1000L };
	unsigned m = measured - r->sub.base;
	int j = (int)((uint64_t)m * r->sub.k / r->sub.total);
	size_t len;

	if (!r->opts.rerun || measured < r->sub.base)
		return 0;
	if (j >= (int)r->sub.k)
		j = (int)r->sub.k - 1;
	if (j <= r->sub.cur)
		return 0;
	if (r->sub.n)
		nanosleep(&pause, NULL);
	if (pcost_interrupted)
		return -EINTR;
	r->sub.cur = j;
	xgrow((void **)&r->sub.first, &r->sub.cap, r->sub.n + 1, sizeof(*r->sub.first));
	r->sub.first[r->sub.n++] = block;
	len = pcost_rand_below(&r->sub.rng, PCOST_RERUN_PAD_MAX);
	free(r->sub.pad);
	r->sub.pad = xcalloc(len + 1, 1);
	memset(r->sub.pad, 'x', len);
	return 0;
}

/* The sub-sessions' first blocks into the session's options (PCOST_RERUN_OPTION). */
static void sub_record(struct pcost_runner *r)
{
	cJSON *a;

	if (!r->opts.rerun || !r->sub.n)
		return;
	a = cJSON_CreateArray();
	for (size_t i = 0; i < r->sub.n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(r->sub.first[i]));
	option_set(r->s, PCOST_RERUN_OPTION, a);
}

/*
 * The kernel's per-task perf hooks, held on while the session measures.  The
 * first per-task perf event on the machine switches on the context-switch
 * hooks (perf_sched_events) and waits for an RCU grace period; the release of
 * the last one switches them off a second later (perf_sched_delayed).  A
 * monitor that opens per-task events (perf stat, perf record) pays that wait
 * only when none was open in the second before it started, so which runs paid
 * it depended on what ran before them: perf stat on true(1) took 24-33 ms a
 * run 1.2 s after the last one here, 12-16 ms with one held.  A disabled
 * software event on probecost itself keeps the hooks on, and every run starts
 * alike.  The fd, or -1 with why; the session's options say which
 * (PCOST_PERF_HOOKS_OPTION).
 */
static int hold_perf_hooks(struct pcost_session *s)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_DUMMY,
		.disabled = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	char why[160];

	if (fd >= 0) {
		option_set(s, PCOST_PERF_HOOKS_OPTION, cJSON_CreateString("held"));
		return fd;
	}
	snprintf(why, sizeof(why), "not held: perf_event_open: %s", strerror(errno));
	option_set(s, PCOST_PERF_HOOKS_OPTION, cJSON_CreateString(why));
	return -1;
}

int pcost_runner_measure(struct pcost_runner *r, char *err, size_t len)
{
	size_t *order = xcalloc(r->nslots ? r->nslots : 1, sizeof(*order));
	uint64_t rng = r->opts.seed;
	unsigned planned = 0; /* adaptive: the blocks planned after the pilot (0: not yet) */
	pcost_ns warm_end_ns;
	bool after_monitor = false; /* the last run was a monitored one (--washout) */
	bool told_long = false;
	int rc = 0, hooks;

	r->s->complete = false;
	if ((rc = pcost_runner_check(r, err, len)) < 0) {
		free(order);
		return rc;
	}
	if (r->opts.check_output && !r->outcheck &&
	    !(r->outcheck = pcost_outcheck_new(r->opts.output_filter, err, len))) {
		free(order);
		return -EINVAL;
	}
	hooks = hold_perf_hooks(r->s);
	r->started_ns = pcost_now_ns();
	prepare_all(r);
	warm_end_ns = pcost_now_ns();
	/* Its own stream: the block orders stay what the seed gave them before. */
	r->sub.rng = r->opts.seed ^ 0x9e3779b97f4a7c15ULL;
	sub_stage(r, 0, r->opts.runs ? r->opts.runs : r->opts.min_runs ? r->opts.min_runs : 2);

	for (unsigned block = 0;; block++) {
		bool warm = block < r->opts.warmup;
		unsigned measured, active = 0;
		size_t n = 0;

		for (size_t i = 0; i < r->nslots; i++)
			if (!r->slots[i].dropped)
				order[n++] = i;
		if (n == 0) {
			snprintf(err, len, "nothing left to measure: every configuration failed");
			rc = -ENOEXEC;
			break;
		}
		pcost_shuffle(order, n, &rng);
		/* --check-output compares a monitored run with plain runs before it. */
		if (r->opts.timeout_s <= 0 || r->outcheck)
			baselines_first(r, order, n);
		if ((rc = service_block(r, block, err, len)) < 0)
			break;
		if (!warm && (rc = sub_before(r, block, block - r->opts.warmup)) < 0)
			break;
		for (size_t k = 0; k < n && rc == 0; k++) {
			struct pcost_runner_slot *sl = &r->slots[order[k]];

			if (after_monitor && r->opts.washout)
				rc = washout(r, sl);
			if (rc == 0)
				rc = run_slot(r, sl, block, (unsigned)k, warm);
			after_monitor = sl->mon->ops->kind != PCOST_MON_BASELINE;
			active++;
		}
		if (rc == -EINTR) {
			/* The runs of the abandoned block that did finish are kept too. */
			for (size_t i = 0; i < r->s->nconfigs; i++)
				pcost_sink_config(r->s, i);
			break;
		}
		r->blocks_done++;
		for (size_t i = 0; i < r->s->nconfigs; i++)
			pcost_sink_config(r->s, i);
		if (r->service_gone) {
			snprintf(err, len,
				 "the service exited during block %u (%s): nothing more "
				 "measured",
				 block, r->service_why);
			rc = -ECHILD;
			break;
		}
		if (r->opts.on_block)
			r->opts.on_block(r->opts.ctx, block, warm);
		measured = r->blocks_done > r->opts.warmup ? r->blocks_done - r->opts.warmup : 0;
		progress(r, measured, false);
		tell_long_pilot(r, &told_long);
		if (warm) {
			warm_end_ns = pcost_now_ns();
			continue;
		}
		if (r->opts.runs) {
			if (measured >= r->opts.runs)
				break;
		} else if (measured >= (r->opts.min_runs ? r->opts.min_runs : 2)) {
			double el = (double)(pcost_now_ns() - r->started_ns) / 1e9;

			if ((r->opts.max_runs && measured >= r->opts.max_runs) ||
			    (r->opts.max_time_s > 0 && el >= r->opts.max_time_s))
				break;
			if (!planned) {
				planned = plan_blocks(r, measured,
						      (double)(pcost_now_ns() - warm_end_ns) / 1e9,
						      el);
				/* The blocks past the pilot: sub-sessions of their own. */
				if (planned > measured)
					sub_stage(r, measured, planned - measured);
			}
			if (measured >= planned)
				break;
		}
		(void)active;
	}
	progress(r, r->blocks_done > r->opts.warmup ? r->blocks_done - r->opts.warmup : 0, true);
	free(order);
	if (hooks >= 0)
		close(hooks);
	sub_record(r);
	if (rc == -EINTR || pcost_interrupted)
		return -EINTR;
	if (rc < 0)
		return rc;
	set_pilot_apart(r, r->blocks_done > r->opts.warmup ? r->blocks_done - r->opts.warmup : 0);
	r->s->complete = true;
	return 0;
}

void pcost_runner_release(struct pcost_runner *r)
{
	for (size_t i = 0; i < r->nslots; i++) {
		struct pcost_monitor *m = r->slots[i].mon;
		bool seen = false;

		for (size_t j = 0; j < i; j++)
			seen |= r->slots[j].mon == m;
		if (!seen && m->ops->cleanup)
			m->ops->cleanup(m);
		pcost_argv_free(r->slots[i].argv);
	}
	free(r->slots);
	pcost_outcheck_free(r->outcheck);
	free(r->sub.first);
	free(r->sub.pad);
	memset(r, 0, sizeof(*r));
}

const char *pcost_runner_note(const struct pcost_runner *r, size_t config, unsigned *count)
{
	for (size_t i = 0; i < r->nslots; i++) {
		if (r->slots[i].config == config) {
			if (count)
				*count = r->slots[i].nnotes;
			return r->slots[i].nnotes ? r->slots[i].note : NULL;
		}
	}
	return NULL;
}
