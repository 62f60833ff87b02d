// SPDX-License-Identifier: MIT
/* workloads/openloop: requests on a fixed schedule, latency from each one's due time (see openloop.h). */
#include "workloads/openloop.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>
#include <unistd.h>

#define EVENTS 64
/* A seed of its own: every run meets the same Poisson schedule, so runs pair by block. */
#define POISSON_SEED 0x9e3779b97f4a7c15ULL

/* xorshift64* (Vigna): uniform in [0, 1). */
static double uniform01(uint64_t *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return (double)((*x * 0x2545f4914f6cdd1dULL) >> 11) * 0x1.0p-53;
}

/*
 * Request i's offset from the start, in ns; last: request i-1's.  Poisson: the
 * arrivals of a Poisson process of rate R given that requests of them fall in
 * T = requests / R, that is requests uniform points of [0, T) in order, drawn
 * one after the other (the least of the m points left past x is x + (T - x)(1 -
 * V^(1/m))): the schedule ends near T whatever the draw, so the rate achieved
 * is comparable with R, where free exponential gaps would stretch or shrink a
 * run of 4,000 requests by 1.6% (1 sd).
 */
static double next_offset(const struct pcost_openloop *o, uint64_t i, double last, uint64_t *rng)
{
	double span = (double)o->requests * 1e9 / o->rate;

	if (o->dist == PCOST_OL_UNIFORM)
		return (double)i * 1e9 / o->rate;
	if (i == 0)
		last = 0;
	/* 1 - uniform01: V in (0, 1], so log(V) is finite. */
	return last - (span - last) * expm1(log(1 - uniform01(rng)) / (double)(o->requests - i));
}

/* Wake at absolute monotonic time t (ns). */
static int arm(int tfd, pcost_ns t)
{
	struct itimerspec its = { .it_value = { .tv_sec = (time_t)(t / 1000000000ULL),
						.tv_nsec = (long)(t % 1000000000ULL) } };

	if (!t)
		its.it_value.tv_nsec = 1; /* 0 would disarm it */
	return timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL) < 0 ? -errno : 0;
}

int pcost_openloop_rewatch(struct pcost_openloop *o, unsigned i)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = i };

	if (epoll_ctl(o->ep, EPOLL_CTL_ADD, o->fd[i], &ev) < 0)
		return error("could not watch a connection: %s", strerror(errno)), -errno;
	return 0;
}

static int setup(struct pcost_openloop *o)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = o->conns };
	int rc;

	o->ep = epoll_create1(EPOLL_CLOEXEC);
	o->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (o->ep < 0 || o->tfd < 0 || epoll_ctl(o->ep, EPOLL_CTL_ADD, o->tfd, &ev) < 0)
		return error("could not set up the open loop's epoll and timer: %s",
			     strerror(errno)),
		       -errno;
	for (unsigned i = 0; i < o->conns; i++)
		if ((rc = pcost_openloop_rewatch(o, i)) < 0)
			return rc;
	/*
	 * A timer fires up to the thread's slack late (50 us by default), and that
	 * lateness would count in every latency: ask for none.
	 */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	return 0;
}

/* Send every request that is due while a connection is free; *due is the next one's time. */
static int send_due(struct pcost_openloop *o, unsigned *idle, unsigned *nidle, pcost_ns *intended,
		    uint64_t *next, pcost_ns start, double *off, pcost_ns *due, uint64_t *rng)
{
	pcost_ns now = pcost_now_ns();

	while (*next < o->requests && *nidle && *due <= now) {
		unsigned i = idle[--*nidle];
		int rc;

		intended[i] = *due;
		if ((rc = o->send(o->arg, i, *next)) < 0)
			return rc;
		++*next;
		*off = next_offset(o, *next, *off, rng);
		*due = start + (pcost_ns)*off;
		if (*due > now)
			now = pcost_now_ns();
	}
	return 0;
}

int pcost_openloop_run(struct pcost_openloop *o)
{
	struct epoll_event ev[EVENTS];
	unsigned *idle = xcalloc(o->conns, sizeof(*idle)), nidle = o->conns;
	pcost_ns *intended = xcalloc(o->conns, sizeof(*intended)), start, due, armed = 0, last = 0;
	uint64_t next = 0, rng = POISSON_SEED, tick;
	double off = next_offset(o, 0, 0, &rng);
	int rc = setup(o);

	for (unsigned i = 0; i < o->conns; i++)
		idle[i] = o->conns - 1 - i;
	start = last = pcost_now_ns();
	due = start + (pcost_ns)off;
	while (!rc && o->done < o->requests) {
		int n;

		if ((rc = send_due(o, idle, &nidle, intended, &next, start, &off, &due, &rng)) < 0)
			break;
		/* The timer only while a request is waiting for its time, not for a connection. */
		if (next < o->requests && nidle && due != armed) {
			if ((rc = arm(o->tfd, due)) < 0) {
				error("could not arm the open loop's timer: %s", strerror(-rc));
				break;
			}
			armed = due;
		}
		n = epoll_wait(o->ep, ev, EVENTS, -1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -errno;
			error("epoll_wait: %s", strerror(errno));
			break;
		}
		for (int k = 0; k < n && !rc; k++) {
			unsigned i = ev[k].data.u32;

			if (i == o->conns) {
				if (read(o->tfd, &tick, sizeof(tick)) < 0 && errno != EAGAIN)
					rc = -errno;
				armed = 0;
				continue;
			}
			if ((rc = o->recv(o->arg, i)) <= 0)
				continue;
			rc = 0;
			last = pcost_now_ns();
			pcost_hist_record(o->hist, last - intended[i]);
			o->done++;
			idle[nidle++] = i;
		}
	}
	o->timed_ns = last - start;
	free(idle);
	free(intended);
	if (o->tfd >= 0)
		close(o->tfd);
	if (o->ep >= 0)
		close(o->ep);
	o->tfd = o->ep = -1;
	return rc;
}

void pcost_load_facts(const struct pcost_hist *h, uint64_t done, pcost_ns timed_ns, uint64_t rate,
		      enum pcost_ol_dist dist, char *buf, size_t len)
{
	int n = 0;

	if (rate)
		n = snprintf(buf, len, " loop=open rate=%llu dist=%s", (unsigned long long)rate,
			     dist == PCOST_OL_POISSON ? "poisson" : "uniform");
	if (n < 0 || (size_t)n >= len)
		return;
	snprintf(buf + n, len - (size_t)n,
		 " throughput=%.1f p50_us=%.3f p99_us=%.3f p999_us=%.3f mean_us=%.3f "
		 "max_us=%.3f",
		 timed_ns ? (double)done * 1e9 / (double)timed_ns : 0.0,
		 pcost_hist_quantile(h, 0.5) / 1e3, pcost_hist_quantile(h, 0.99) / 1e3,
		 pcost_hist_quantile(h, 0.999) / 1e3, pcost_hist_mean(h) / 1e3,
		 (double)h->max / 1e3);
}
