// SPDX-License-Identifier: MIT
/*
 * run/study_predict: what predict measures: the command's events counted in
 * untimed runs, its plain time, and with --verify the monitors measured
 * beside plain runs, as run -- COMMAND does.  With --service, the service is
 * started before each of the two and stopped after (every exit path: its
 * release), and its processes' events are counted in the command's runs.
 */
#include <errno.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/util.h"
#include "monitors/monitor.h"
#include "run/busy.h"
#include "run/count.h"
#include "run/study.h"
#include "run/study_internal.h"
#include "stats/analyze.h"
#include "stats/predict.h"
#include "store/store.h"

/*
 * --service started into *sv (nothing to do without one); 0, -EINVAL (its
 * command refused: said) or as pcost_study_service_start.  Release *sv on
 * every path once this returned 0 (it stops the service).
 */
static int service_up(const struct pcost_predict_study *o, struct pcost_service *sv)
{
	int rc;

	if (!o->service)
		return 0;
	if ((rc = pcost_study_service_init(o->service, sv)))
		return rc;
	if ((rc = pcost_study_service_start(sv)))
		pcost_service_release(sv);
	return rc;
}

static void service_down(const struct pcost_predict_study *o, struct pcost_service *sv)
{
	if (!o->service)
		return;
	if (sv->followed[0])
		warning("%s", sv->followed);
	pcost_service_release(sv);
}

/*
 * Run the command plain (and under mons[1..n) with --verify) in interleaved
 * blocks, the service sv (NULL: none) running; *st gets the analysis (caller frees).
 */
static int measure(const struct pcost_predict_study *o, struct pcost_service *sv,
		   struct pcost_session *s, struct pcost_monitor **mons, size_t nmons,
		   unsigned runs, bool store, struct pcost_config_stats **st)
{
	char *joined = pcost_join_argv(o->ncommand, o->command), err[256];
	struct pcost_target tg = { .workload = "command",
				   .workload_args = joined,
				   .unit = "event",
				   .argv = o->command,
				   .scale = 1,
				   .events = -1 };
	struct pcost_runner_opts ro = o->ro;
	struct pcost_runner r;
	int rc;

	ro.runs = runs;
	ro.seed = s->seed;
	ro.service = sv;
	ro.progress = isatty(2) && pcost_verbosity > 0;
	pcost_runner_init(&r, s, &ro);
	for (size_t i = 0; i < nmons; i++)
		pcost_runner_add(&r, mons[i], &tg);
	free(joined);
	if (pcost_runner_check(&r, err, sizeof(err)) < 0) {
		pcost_runner_release(&r);
		return error("%s", err), -EIO;
	}
	pcost_sink_begin(s, o->db, !store || o->no_store);
	rc = pcost_runner_measure(&r, err, sizeof(err));
	pcost_sink_end(s);
	pcost_runner_release(&r);
	if (rc == -EINTR || pcost_interrupted)
		return -EINTR;
	/* Every run failed: the command's own failure ("exit 3: its last line of stderr"). */
	if (pcost_session_failed(s)) {
		const char *why = pcost_session_fail_reason(s);

		return error("'%s' failed%s%s", o->command[0], why ? ": " : "", why ? why : ""),
		       -EIO;
	}
	if (rc < 0)
		return error("%s", err), -EIO;
	return pcost_analyze(s, st) < 0 ? (error("could not analyze the runs"), -EIO) : 0;
}

/*
 * The tasks' lifetimes in the plain runs: the kernel's process events (the
 * proc connector, as root), every task's creation and exit on the machine
 * with its time, queued on a socket while the runs run and read after them
 * (its buffer sized for seconds of a busy machine's events; a lost event
 * leaves the figure unmeasured, never wrong).
 */
#define LIFETIME_RCVBUF (64 << 20)

static void lifetimes_send(int fd, enum proc_cn_mcast_op op)
{
	char buf[NLMSG_SPACE(sizeof(struct cn_msg) + sizeof(op))];
	struct nlmsghdr *nl = (struct nlmsghdr *)buf;
	struct cn_msg *cn = NLMSG_DATA(nl);

	memset(buf, 0, sizeof(buf));
	nl->nlmsg_len = NLMSG_LENGTH(sizeof(*cn) + sizeof(op));
	nl->nlmsg_type = NLMSG_DONE;
	cn->id.idx = CN_IDX_PROC;
	cn->id.val = CN_VAL_PROC;
	cn->len = sizeof(op);
	memcpy(cn->data, &op, sizeof(op));
	/* Nothing to do when it fails: no events come (LISTEN), or none were asked (IGNORE). */
	if (send(fd, buf, nl->nlmsg_len, 0) < 0)
		return;
}

/* The undo of lifetimes_open (async-signal-safe: send and close). */
static void lifetimes_close(void *arg)
{
	int *fd = arg;

	if (*fd < 0)
		return;
	lifetimes_send(*fd, PROC_CN_MCAST_IGNORE);
	close(*fd);
	*fd = -1;
}

/* Listen to the process events into *fd (-1 with why when this cannot: not root). */
static void lifetimes_open(int *fd, char *why, size_t len)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = CN_IDX_PROC };
	int sz = LIFETIME_RCVBUF;

	*fd = socket(PF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_CONNECTOR);
	if (*fd < 0 || bind(*fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    setsockopt(*fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz)) < 0) {
		snprintf(why, len, "the kernel's process events: %s (run as root)",
			 strerror(errno));
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
		return;
	}
	lifetimes_send(*fd, PROC_CN_MCAST_LISTEN);
}

static int event_cmp(const void *a, const void *b)
{
	double x = ((const struct pcost_task_event *)a)->t_ns;
	double y = ((const struct pcost_task_event *)b)->t_ns;

	return (x > y) - (x < y);
}

/* The events queued on fd, in time order, into *ev; -1 with why when some were lost. */
static ssize_t lifetimes_read(int fd, struct pcost_task_event **ev, char *why, size_t len)
{
	static char buf[1 << 16] __attribute__((aligned(8)));
	size_t n = 0;
	ssize_t got;

	*ev = NULL;
	while ((got = recv(fd, buf, sizeof(buf), 0)) > 0) {
		int left = (int)got;

		for (struct nlmsghdr *nl = (struct nlmsghdr *)buf; NLMSG_OK(nl, left);
		     nl = NLMSG_NEXT(nl, left)) {
			const struct cn_msg *cn = NLMSG_DATA(nl);
			struct proc_event pe;
			struct pcost_task_event e = { 0 };

			/* The event follows a 20-byte header: copied out, it is aligned. */
			memset(&pe, 0, sizeof(pe));
			memcpy(&pe, cn->data, cn->len < sizeof(pe) ? cn->len : sizeof(pe));
			e.t_ns = (double)pe.timestamp_ns;
			if (pe.what == PROC_EVENT_FORK) {
				e.pid = pe.event_data.fork.child_pid;
				e.tgid = pe.event_data.fork.child_tgid;
				e.parent_tgid = pe.event_data.fork.parent_tgid;
			} else if (pe.what == PROC_EVENT_EXIT) {
				e.exit = true;
				e.pid = pe.event_data.exit.process_pid;
				e.tgid = pe.event_data.exit.process_tgid;
			} else {
				continue;
			}
			if (!(n & (n - 1))) /* doubled at each power of 2 */
				*ev = xrealloc(*ev, (n ? 2 * n : 1) * sizeof(**ev));
			(*ev)[n++] = e;
		}
	}
	if (got < 0 && errno == ENOBUFS) {
		snprintf(why, len, "process events were lost (more than the %d MB socket buffer)",
			 LIFETIME_RCVBUF >> 20);
		free(*ev);
		*ev = NULL;
		return -1;
	}
	if (n)
		qsort(*ev, n, sizeof(**ev), event_cmp);
	return (ssize_t)n;
}

/* The CPUs the runs may use: the pinned set's, else the online ones. */
static double run_cpus(const struct pcost_predict_study *o)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	if (o->ro.cpu_mask)
		return (double)__builtin_popcountll(o->ro.cpu_mask);
	return online > 0 ? (double)online : 1;
}

/* CPU time of probecost's reaped children so far (the runs), ns. */
static double children_cpu_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_CHILDREN, &ru) < 0)
		return NAN;
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e9 +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e3;
}

/*
 * The CPUs the machine's other processes took on the runs' CPUs between two
 * readings: their busy and steal time less the study's own (the runs, reaped,
 * and probecost with its live descendants), over the time between; NaN when
 * unreadable.  Over all the plain runs at once: one run of a short command is
 * below what /proc/stat's ticks resolve (busy.h).
 */
static double others_between(const struct pcost_cpu_times *b, const struct pcost_cpu_times *a,
			     double own_children_ns)
{
	long hz = sysconf(_SC_CLK_TCK);
	double tick = hz > 0 ? 1e9 / (double)hz : 1e7, busy, own, window;

	if (!b->ok || !a->ok || !b->study_ok || !a->study_ok || !isfinite(own_children_ns) ||
	    a->busy < b->busy || a->steal < b->steal || a->at <= b->at)
		return NAN;
	busy = (double)(a->busy - b->busy + a->steal - b->steal) * tick;
	own = own_children_ns + (double)(a->study - b->study);
	window = (double)(a->at - b->at);
	return fmax(busy - own, 0) / window;
}

/* The plain runs: the overhead's denominator T0, its standard error and df. */
static int plain_time(const struct pcost_predict_study *o, struct pcost_service *sv,
		      struct pcost_counts *c)
{
	struct pcost_monitor *none[1];
	struct pcost_config_stats *st = NULL;
	struct pcost_task_event *ev = NULL;
	struct pcost_session s;
	char err[256];
	static int fd = -1;
	ssize_t nev = -1;
	int rc, undo;
	struct pcost_cpu_times before, after;
	double children;

	none[0] = pcost_monitor_create("none", err, sizeof(err));
	pcost_study_session_start(&s, o->argc, o->argv);
	s.seed = (uint64_t)time(NULL);
	lifetimes_open(&fd, c->concurrency_why, sizeof(c->concurrency_why));
	undo = fd >= 0 ? pcost_cleanup_push(lifetimes_close, &fd) : -1;
	pcost_cpu_times_read(o->ro.cpu_mask, &before);
	children = children_cpu_ns();
	rc = measure(o, sv, &s, none, 1, o->plain_runs, false, &st);
	pcost_cpu_times_read(o->ro.cpu_mask, &after);
	c->cpus = run_cpus(o);
	c->others = others_between(&before, &after, children_cpu_ns() - children);
	if (fd >= 0)
		nev = lifetimes_read(fd, &ev, c->concurrency_why, sizeof(c->concurrency_why));
	if (undo >= 0)
		pcost_cleanup_pop(undo, 1);
	else
		lifetimes_close(&fd);
	c->concurrency = nev >= 0 ? pcost_task_concurrency(ev, (size_t)nev, getpid()) : NAN;
	if (isfinite(c->concurrency))
		c->concurrency = fmin(c->concurrency, run_cpus(o));
	else if (nev >= 0)
		snprintf(c->concurrency_why, sizeof(c->concurrency_why),
			 "no run's first task was seen created and ended");
	free(ev);
	if (!rc && st) {
		c->base_ns = st[0].wall.mean;
		c->base_se = st[0].wall.sem;
		c->base_df = st[0].wall.n > 1 ? (double)st[0].wall.n - 1 : NAN;
		/* Its tasks' CPU time over its wall time: how many ran side by side. */
		if (st[0].wall.mean > 0)
			c->parallel = (st[0].user.mean + st[0].sys.mean) / st[0].wall.mean;
	}
	free(st);
	pcost_session_release(&s);
	return rc;
}

int pcost_study_verify(const struct pcost_predict_study *o, const struct pcost_prediction *p,
		       struct pcost_prediction_check *checks, int64_t *session)
{
	struct pcost_monitor *mons[PCOST_STUDY_MAX_ITEMS + 1];
	int idx[PCOST_STUDY_MAX_ITEMS];
	char why[PCOST_STUDY_MAX_ITEMS][256];
	static const struct pcost_study_opts no_service;
	struct pcost_config_stats *st = NULL;
	struct pcost_session s;
	struct pcost_service sv;
	size_t n = 0;
	char err[256];
	int rc;

	mons[n++] = pcost_monitor_create("none", err, sizeof(err));
	for (size_t i = 0; i < o->nmonitors; i++) {
		/* With --service, its service form where it has one, as run makes it. */
		struct pcost_monitor *m = pcost_study_monitor_create(
			o->service ? o->service : &no_service, o->monitors[i], err, sizeof(err));

		idx[i] = -1;
		if (!m || !pcost_monitor_available(m, why[i], sizeof(why[i]))) {
			if (!m)
				snprintf(why[i], sizeof(why[i]), "%s", err);
			pcost_monitor_free(m);
			continue;
		}
		idx[i] = (int)n;
		mons[n++] = m;
	}
	pcost_study_session_start(&s, o->argc, o->argv);
	s.seed = o->seed_given ? o->ro.seed : (uint64_t)time(NULL);
	if (!(rc = service_up(o, &sv))) {
		rc = measure(o, o->service ? &sv : NULL, &s, mons, n, o->ro.runs, true, &st);
		service_down(o, &sv);
	}
	for (size_t i = 0; i < o->nmonitors; i++)
		pcost_prediction_check(&p[i], !rc && idx[i] >= 0 ? &st[idx[i]] : NULL,
				       idx[i] < 0 ? why[i] : "every run failed", &checks[i]);
	*session = s.id;
	free(st);
	pcost_session_release(&s);
	for (size_t i = 0; i < n; i++)
		pcost_monitor_free(mons[i]);
	return rc;
}

/*
 * The syscalls to count by name: the model's classes (a decoding tracer pays
 * by class) and the names of every strace-seccomp:trace=NAME,... asked
 * (classes and negations are not names: the model says so); *buf holds the
 * sets' names (caller frees).
 */
static size_t count_names(const struct pcost_predict_study *o, const char **names, size_t max,
			  char **buf)
{
	char *save = NULL;
	size_t n = pcost_model_syscall_names(names, max);

	*buf = NULL;
	for (size_t i = 0; i < o->nmonitors; i++) {
		const char *set = strstr(o->monitors[i], "trace=");
		char *joined;

		if (strncmp(o->monitors[i], "strace-seccomp:", 15) || !set || strpbrk(set, "%!?"))
			continue;
		joined = xasprintf("%s%s%s", *buf ? *buf : "", *buf ? "," : "", set + 6);
		free(*buf);
		*buf = joined;
	}
	for (char *w = *buf ? strtok_r(*buf, ",", &save) : NULL; w && n < max;
	     w = strtok_r(NULL, ",", &save)) {
		size_t k = 0;

		while (k < n && strcmp(names[k], w))
			k++;
		if (k == n)
			names[n++] = w;
	}
	return n;
}

/* Does monitor watch the service (it has a service form) rather than wrap the command? */
static bool watches_service(const struct pcost_predict_study *o, const char *monitor)
{
	char err[256];
	struct pcost_monitor *m =
		o->service ? pcost_monitor_service_create(monitor, err, sizeof(err)) : NULL;

	pcost_monitor_free(m);
	return m != NULL;
}

/*
 * With a service: the plain run's parallelism is the client's and the
 * service's tasks together (the service's CPU time in the counting runs, as
 * the run's), in both counts, and the service's counts get the plain time.
 */
static void service_overlap(struct pcost_counts *c, struct pcost_counts *sc)
{
	double client = isfinite(c->parallel) ? c->parallel * c->base_ns : 0;
	double server = sc->n[PCOST_CNT_TASK_CLOCK_NS];

	if (c->base_ns > 0 && isfinite(server))
		c->parallel = (client + server) / c->base_ns;
	sc->parallel = c->parallel;
	/* The service's tasks' lifetimes are not followed: its terms overlap by P. */
	sc->concurrency = NAN;
	sc->base_ns = c->base_ns;
	sc->base_se = c->base_se;
	sc->base_df = c->base_df;
}

int pcost_study_predict(const struct pcost_predict_study *o, const struct pcost_cost_table *t,
			struct pcost_counts *c, struct pcost_counts *sc, struct pcost_prediction *p)
{
	const char *names[128];
	char *nbuf, err[512];
	struct pcost_count_opts co = { .runs = o->count_runs,
				       .cpu_mask = o->ro.cpu_mask,
				       .timeout_s = o->ro.timeout_s,
				       .names = names };
	struct pcost_service sv;
	int rc;

	/* Nothing to release yet, whichever way this ends. */
	memset(c, 0, sizeof(*c));
	memset(sc, 0, sizeof(*sc));
	co.nnames = count_names(o, names, ARRAY_SIZE(names), &nbuf);
	if ((rc = service_up(o, &sv))) {
		free(nbuf);
		return rc;
	}
	if (o->service) {
		co.service_pid = pcost_service_pid(&sv);
		co.service = sc;
	}
	rc = pcost_count_command(o->command, &co, c, err, sizeof(err));
	free(nbuf);
	if (rc < 0 && rc != -EINTR)
		rc = (error("%s", err), -EIO);
	if (!rc)
		rc = plain_time(o, o->service ? &sv : NULL, c);
	service_down(o, &sv);
	if (rc)
		return rc;
	if (o->service)
		service_overlap(c, sc);
	for (size_t i = 0; i < o->nmonitors; i++) {
		if (watches_service(o, o->monitors[i]))
			pcost_predict_service(t, o->monitors[i], sc, &p[i]);
		else
			pcost_predict(t, o->monitors[i], c, &p[i]);
	}
	return 0;
}
