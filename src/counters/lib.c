// SPDX-License-Identifier: MIT
/* counters/lib: open a group of perf events on this thread, start, stop, read, close. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "probecost/counters.h"

struct pcost_counters {
	unsigned n;
	enum pcost_read_mode mode;
	int fd[PCOST_COUNTERS_MAX];
	void *page[PCOST_COUNTERS_MAX];
	size_t page_len;
	char *name[PCOST_COUNTERS_MAX];
	char *canon[PCOST_COUNTERS_MAX];
	/* Group read buffer: nr, time_enabled, time_running, then one value per event. */
	uint64_t *buf;
	size_t buflen;
};

/* Fields of struct pcost_counter_opts a caller of size sz has set; missing ones read 0. */
#define OPT(o, f)                                                                                  \
	((o) && (o)->sz >= offsetof(struct pcost_counter_opts, f) + sizeof((o)->f) ? (o)->f : 0)

int pcost_counters_open(struct pcost_counters **out, const char *const *names, unsigned k)
{
	return pcost_counters_open_opts(out, names, k, NULL);
}

static int map_open_errno(int e)
{
	/* The kernel says "no such event here" three ways; callers want one. */
	if (e == ENOENT || e == EOPNOTSUPP || e == ENODEV)
		return -EOPNOTSUPP;
	if (e == EPERM)
		return -EACCES;
	return -e;
}

int pcost_counters_open_opts(struct pcost_counters **out, const char *const *names, unsigned k,
			     const struct pcost_counter_opts *opts)
{
	struct pcost_counters *c;
	int *failed = OPT(opts, failed_index);
	bool do_mmap = OPT(opts, mmap), excl = OPT(opts, exclude_kernel);
	unsigned cur = 0;
	int rc = 0;

	*out = NULL;
	if (failed)
		*failed = -1;
	if (opts && opts->sz < sizeof(size_t))
		return -EINVAL;
	if (k == 0 || k > PCOST_COUNTERS_MAX || !names)
		return -E2BIG;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->mode = OPT(opts, read_mode);
	c->page_len = (size_t)sysconf(_SC_PAGESIZE);
	for (unsigned i = 0; i < PCOST_COUNTERS_MAX; i++)
		c->fd[i] = -1;
	c->buflen = (3 + (size_t)k) * sizeof(uint64_t);
	c->buf = calloc(1, c->buflen);
	if (!c->buf) {
		free(c);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < k; i++) {
		struct perf_event_attr attr;
		char canon[256];
		int fd;

		cur = i;
		rc = pcost_counter_resolve(names[i], excl, &attr, canon, sizeof(canon));
		if (rc < 0)
			goto fail_at;
		attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		if (c->mode == PCOST_READ_GROUP)
			/* No PERF_FORMAT_ID: values come in open order, ids would only cost copies.
			 */
			attr.read_format |= PERF_FORMAT_GROUP;
		/*
		 * Only the leader starts disabled: members follow its ENABLE/DISABLE.
		 * (A member opened disabled and enabled with PERF_IOC_FLAG_GROUP after
		 * its leader stays off the PMU until the next reschedule: it reads 0.)
		 */
		attr.disabled = i == 0;
		attr.exclude_hv = 1;
		fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, i ? c->fd[0] : -1,
				  PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			rc = map_open_errno(errno);
			goto fail_at;
		}
		c->fd[i] = fd;
		c->n = i + 1;
		c->name[i] = strdup(names[i]);
		c->canon[i] = strdup(canon);
		if (!c->name[i] || !c->canon[i]) {
			rc = -ENOMEM;
			goto fail_at;
		}
		if (do_mmap) {
			void *p = mmap(NULL, c->page_len, PROT_READ, MAP_SHARED, fd, 0);

			if (p == MAP_FAILED) {
				rc = -errno;
				goto fail_at;
			}
			c->page[i] = p;
		}
		(void)ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	}
	*out = c;
	return 0;

fail_at:
	/* c->n covers every descriptor opened so far; close() releases them all. */
	if (failed)
		*failed = (int)cur;
	pcost_counters_close(c);
	return rc;
}

void pcost_counters_close(struct pcost_counters *c)
{
	if (!c)
		return;
	/* Members before the leader, so the group never outlives its leader. */
	for (unsigned i = c->n; i-- > 0;) {
		if (c->page[i])
			munmap(c->page[i], c->page_len);
		if (c->fd[i] >= 0)
			close(c->fd[i]);
		free(c->name[i]);
		free(c->canon[i]);
	}
	free(c->buf);
	free(c);
}

/*
 * Start and stop switch the leader alone: a disabled leader takes its whole
 * group off the CPU, an enabled one brings it back.  PERF_IOC_FLAG_GROUP is
 * not used on purpose: it disables the members too, and a member re-enabled
 * after its running leader is not scheduled until the task next switches, so
 * it would count nothing in between (seen on 6.18; PAPI switches the leader
 * alone as well).
 */
int pcost_counters_start(struct pcost_counters *c)
{
	if (ioctl(c->fd[0], PERF_EVENT_IOC_ENABLE, 0) < 0)
		return -errno;
	return 0;
}

int pcost_counters_stop(struct pcost_counters *c)
{
	if (ioctl(c->fd[0], PERF_EVENT_IOC_DISABLE, 0) < 0)
		return -errno;
	return 0;
}

/*
 * Scaling uses the leader's enabled/running for every event.  A group is
 * scheduled as a unit, so the leader's ratio is the group's; a member's own
 * time_enabled also runs while the disabled leader keeps it off the CPU
 * (enabled-but-not-running), and scaling by it would inflate its value by
 * all the time spent stopped.
 */
static int read_each(struct pcost_counters *c, uint64_t *values)
{
	uint64_t ena = 0, run = 0;

	for (unsigned i = 0; i < c->n; i++) {
		uint64_t v[3];
		ssize_t r = read(c->fd[i], v, sizeof(v));

		if (r < 0)
			return -errno;
		if (r != (ssize_t)sizeof(v))
			return -EIO;
		if (i == 0) {
			ena = v[1];
			run = v[2];
		}
		values[i] = pcost_counter_scale(v[0], ena, run);
	}
	return 0;
}

static int read_group(struct pcost_counters *c, uint64_t *values)
{
	uint64_t *b = c->buf;
	ssize_t r = read(c->fd[0], b, c->buflen);

	if (r < 0)
		return -errno;
	if (r != (ssize_t)((3 + c->n) * sizeof(uint64_t)) || b[0] != c->n)
		return -EIO;
	/* One enabled/running pair for the whole group: it is scheduled as a unit. */
	for (unsigned i = 0; i < c->n; i++)
		values[i] = pcost_counter_scale(b[3 + i], b[1], b[2]);
	return 0;
}

int pcost_counters_read(struct pcost_counters *c, uint64_t *values)
{
	return c->mode == PCOST_READ_GROUP ? read_group(c, values) : read_each(c, values);
}

int pcost_counters_read_mmap(struct pcost_counters *c, uint64_t *values)
{
	uint64_t lena = 0, lrun = 0;

	for (unsigned i = 0; i < c->n; i++) {
		uint64_t cnt, ena, run;
		int rc;

		if (!c->page[i])
			return -EOPNOTSUPP;
		rc = pcost_mmap_read_page(c->page[i], NULL, &cnt, &ena, &run);
		if (rc < 0)
			return rc;
		/* The leader's times scale the group (see read_each). */
		if (i == 0) {
			lena = ena;
			lrun = run;
		}
		values[i] = pcost_counter_scale(cnt, lena, lrun);
	}
	return 0;
}

int pcost_counters_mmap_check(struct pcost_counters *c, char *why, size_t len)
{
	for (unsigned i = 0; i < c->n; i++) {
		volatile const struct perf_event_mmap_page *pc = c->page[i];

		if (!pc) {
			snprintf(why, len, "opened without mmap");
			return -EOPNOTSUPP;
		}
		if (!pc->cap_user_rdpmc || !pc->index) {
			snprintf(
				why, len,
				"'%s': user page has %s (cap_user_rdpmc=%u, index=%u): %s",
				c->name[i], pc->index ? "rdpmc disabled" : "no counter index",
				(unsigned)pc->cap_user_rdpmc, (unsigned)pc->index,
				c->canon[i] && !strncmp(c->canon[i], "perf::PERF_COUNT_SW", 19)
					? "a software event is counted by the kernel, not in a PMU "
					  "register, so rdpmc cannot read it"
					: "no hardware counter is assigned (no PMU, or rdpmc "
					  "disabled in /sys/bus/event_source/devices/cpu/rdpmc)");
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

unsigned pcost_counters_count(const struct pcost_counters *c)
{
	return c->n;
}

const char *pcost_counters_name(const struct pcost_counters *c, unsigned i)
{
	return i < c->n ? c->name[i] : NULL;
}

const char *pcost_counters_canonical(const struct pcost_counters *c, unsigned i)
{
	return i < c->n ? c->canon[i] : NULL;
}

int pcost_counters_fd(const struct pcost_counters *c, unsigned i)
{
	return i < c->n ? c->fd[i] : -1;
}
