/* SPDX-License-Identifier: MIT */
/*
 * probecost/counters.h: a small self-monitoring library over perf_event.
 *
 * Call order:
 *   pcost_counters_open[_opts]()      resolve names (libpfm4), open one group, disabled
 *   pcost_counters_start()            ioctl(leader, ENABLE): the whole group starts
 *   pcost_counters_read*()            as often as wanted, running or stopped
 *   pcost_counters_stop()             ioctl(leader, DISABLE): the whole group stops
 *   pcost_counters_close()            closes every descriptor, unmaps every page, frees
 *
 * Ownership: the handle owns its descriptors and pages; nothing else may
 * close them.  Values are 64-bit counts in the event's own unit (ns for
 * task-clock and cpu-clock), scaled by time_enabled / time_running when the
 * kernel multiplexed the group.  Functions return 0 or -errno; they never
 * print and never exit.  Not thread-safe: one handle, one thread.
 *
 * Event names are whatever libpfm4 knows ("task-clock", "perf::PAGE-FAULTS",
 * "cycles", "amd64_fam19h_zen3::RETIRED_INSTRUCTIONS", ...).  Unknown names give
 * -ENOENT (pcost_counter_suggest() lists close matches); names libpfm4 knows
 * but this kernel cannot count (hardware events without a PMU) give
 * -EOPNOTSUPP.
 */
#ifndef PROBECOST_COUNTERS_H
#define PROBECOST_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Most events one handle holds (a group this large is already a stress test). */
#define PCOST_COUNTERS_MAX 64

struct pcost_counters;

/* How the values will be read; fixes the read_format at open time. */
enum pcost_read_mode {
	PCOST_READ_EACH,  /* one read() per descriptor: {value, enabled, running} */
	PCOST_READ_GROUP, /* one read() of the leader with PERF_FORMAT_GROUP */
};

/*
 * Options that can grow: set .sz = sizeof(struct pcost_counter_opts) (the
 * PCOST_OPTS macro does), leave fields you do not know about zero.
 */
struct pcost_counter_opts {
	size_t sz;
	enum pcost_read_mode read_mode; /* default PCOST_READ_EACH */
	bool mmap;			/* map each event's user page (pcost_counters_read_mmap) */
	bool exclude_kernel; /* count user space only (needed when perf_event_paranoid >= 2
				   and not root); default counts both */
	int *failed_index;   /* out, optional: index of the name that failed, else -1 */
};

#define PCOST_OPTS(type, name, ...) struct type name = { .sz = sizeof(struct type), __VA_ARGS__ }

/* Open names[0..k) as one group, disabled.  1 <= k <= PCOST_COUNTERS_MAX. */
int pcost_counters_open(struct pcost_counters **out, const char *const *names, unsigned k);
int pcost_counters_open_opts(struct pcost_counters **out, const char *const *names, unsigned k,
			     const struct pcost_counter_opts *opts);

int pcost_counters_start(struct pcost_counters *c);
int pcost_counters_stop(struct pcost_counters *c);

/* Read every value (values[0..k)) the way the handle was opened for. */
int pcost_counters_read(struct pcost_counters *c, uint64_t *values);

/*
 * Read every value from the mmap'd user pages with the seqlock protocol and
 * rdpmc.  -EOPNOTSUPP when the handle has no pages, or when an event's page
 * says rdpmc is impossible (cap_user_rdpmc clear or index 0: every software
 * event, every machine without a PMU); pcost_counters_mmap_check() says which.
 */
int pcost_counters_read_mmap(struct pcost_counters *c, uint64_t *values);
/* Can read_mmap work right now?  Call while started.  0, or -EOPNOTSUPP and a reason. */
int pcost_counters_mmap_check(struct pcost_counters *c, char *why, size_t len);

unsigned pcost_counters_count(const struct pcost_counters *c);
/* The name as given, and the libpfm4 canonical form ("perf::PERF_COUNT_SW_TASK_CLOCK:..."). */
const char *pcost_counters_name(const struct pcost_counters *c, unsigned i);
const char *pcost_counters_canonical(const struct pcost_counters *c, unsigned i);
/* The descriptor of event i (owned by the handle; for poll or inspection only). */
int pcost_counters_fd(const struct pcost_counters *c, unsigned i);

/* Close everything; NULL is fine. */
void pcost_counters_close(struct pcost_counters *c);

/*
 * Resolve one name with libpfm4 into attr (zeroed first).  canon (may be
 * NULL) receives libpfm4's full name.  0, -ENOENT (unknown name) or -EINVAL.
 */
int pcost_counter_resolve(const char *name, bool exclude_kernel, struct perf_event_attr *attr,
			  char *canon, size_t len);

/* Up to max names libpfm4 knows that are close to name, comma separated; returns how many. */
int pcost_counter_suggest(const char *name, char *buf, size_t len, int max);

/*
 * Does this machine count hardware events?  Detected by opening
 * PERF_COUNT_HW_CPU_CYCLES, not assumed from the CPU model (a KVM guest
 * reports its host's CPU and has no PMU).  why gets the reason when not.
 */
bool pcost_counters_have_pmu(char *why, size_t len);

/*
 * The seqlock read of one user page, exposed so it can be tested against a
 * synthetic page.  rdpmc and rdtsc are hooks (NULL: the real instructions).
 * Fills *count (raw, unscaled), *enabled and *running (ns, advanced to now
 * when cap_user_time allows).  Returns 0, or -EOPNOTSUPP when the page has
 * no usable counter (index 0 or cap_user_rdpmc clear; *count then holds only
 * pc->offset, which is not the value).
 */
struct pcost_mmap_hooks {
	uint64_t (*rdpmc)(unsigned counter, void *ctx);
	uint64_t (*rdtsc)(void *ctx);
	void *ctx;
};
int pcost_mmap_read_page(volatile const struct perf_event_mmap_page *pc,
			 const struct pcost_mmap_hooks *hooks, uint64_t *count, uint64_t *enabled,
			 uint64_t *running);

/* count * enabled / running (without overflow), count when running == 0 or == enabled. */
uint64_t pcost_counter_scale(uint64_t count, uint64_t enabled, uint64_t running);

#ifdef __cplusplus
}
#endif
#endif
