/* SPDX-License-Identifier: MIT */
/*
 * openloop: requests sent on a fixed schedule over a pool of connections, each
 * request's latency counted from the time the schedule gave it (wrk2's
 * correction of coordinated omission), for the server and http workloads.
 *
 * A closed loop sends a connection's next request when its last reply is back:
 * a service that stalls stops the load with it, and only the few requests in
 * flight see the stall.  Here request i is due at start + offset(i) (R a second,
 * evenly spaced or Poisson), is sent on a free connection as soon as it is due
 * and one is free, and its latency runs from when it was due: a request that
 * waited for a free connection behind a stalled service counts that wait.  One
 * request is in flight on a connection at a time (HTTP/1.1 keep-alive without
 * pipelining), so conns bounds what is in flight, as a client's pool does.
 */
#ifndef PCOST_WL_OPENLOOP_H
#define PCOST_WL_OPENLOOP_H

#include <stdint.h>

#include "core/util.h"
#include "stats/hist.h"

enum pcost_ol_dist { PCOST_OL_UNIFORM, PCOST_OL_POISSON };

/* The parameter rows both workloads take: rate= (0: closed loop) and dist=. */
#define PCOST_OL_RATE_MAX 10000000
#define PCOST_OL_DIST_CHOICES "uniform|poisson"

struct pcost_openloop {
	/* Set by the caller before pcost_openloop_run: */
	double rate; /* requests a second, > 0 */
	enum pcost_ol_dist dist;
	uint64_t requests;
	unsigned conns;
	int *fd; /* conns connected non-blocking sockets; the protocol may replace one */
	/* Send request seq on connection i (free, its socket writable enough): 0 or -errno said. */
	int (*send)(void *arg, unsigned i, uint64_t seq);
	/*
	 * Connection i is readable: 1 when its reply is whole (the protocol has
	 * checked it), 0 when more is to come, -errno (an error said).
	 */
	int (*recv)(void *arg, unsigned i);
	void *arg;
	struct pcost_hist *hist; /* each reply's latency from its request's due time, ns */

	/* Results: */
	uint64_t done;
	pcost_ns timed_ns; /* from the schedule's start to the last reply */
	/* Private: */
	int ep, tfd;
};

/*
 * Run the schedule: requests sent, every reply received and its latency
 * recorded.  0, or -errno with an error said.
 */
int pcost_openloop_run(struct pcost_openloop *o);

/* Connection i's descriptor changed (the protocol reconnected): watch the new one. */
int pcost_openloop_rewatch(struct pcost_openloop *o, unsigned i);

/*
 * A load generator's facts, written at buf (len bytes): with rate (the open
 * loop) " loop=open rate=R dist=D", then " throughput=T p50_us= p99_us=
 * p999_us= mean_us= max_us=", T = done requests over timed_ns (the rate
 * achieved).
 */
void pcost_load_facts(const struct pcost_hist *h, uint64_t done, pcost_ns timed_ns, uint64_t rate,
		      enum pcost_ol_dist dist, char *buf, size_t len);

#endif
