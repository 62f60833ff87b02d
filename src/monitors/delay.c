// SPDX-License-Identifier: MIT
/*
 * delay: the calibration monitor.  delay:ns=N preloads a shim that spins N ns
 * in every read()/write() the workload makes through libc and counts them, so
 * the cost per monitor event probecost reports must come out as N: the way to
 * check that probecost can see an overhead of that size on this machine.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/proc.h"
#include "monitors/monitor.h"
#include "monitors/monitor_table.h"

#ifndef PCOST_LIBDIR
#define PCOST_LIBDIR "/usr/local/lib/probecost"
#endif
#define SHIM "libprobecost-delay.so"

struct delay_monitor {
	struct pcost_monitor m;
	uint64_t ns;
	char shim[PATH_MAX];
	char count[PATH_MAX]; /* 8-byte shared counter file, "" when none */
	int undo;
};

/* Next to the binary, in build/ beside it (a source tree), then the installed lib dir. */
static bool find_shim(char *out, size_t len)
{
	char exe[PATH_MAX], *dir;
	const char *env = getenv("PROBECOST_LIBDIR");

	snprintf(exe, sizeof(exe), "%s", pcost_self_exe());
	dir = dirname(exe);
	if (env) {
		snprintf(out, len, "%s/" SHIM, env);
		if (access(out, R_OK) == 0)
			return true;
	}
	snprintf(out, len, "%s/" SHIM, dir);
	if (access(out, R_OK) == 0)
		return true;
	snprintf(out, len, "%s/build/" SHIM, dir);
	if (access(out, R_OK) == 0)
		return true;
	snprintf(out, len, "%s/" SHIM, PCOST_LIBDIR);
	return access(out, R_OK) == 0;
}

static void unlink_count(void *arg)
{
	struct delay_monitor *d = arg;

	if (d->count[0])
		unlink(d->count);
}

static int delay_prepare(struct pcost_monitor *m, char *err, size_t len)
{
	struct delay_monitor *d = container_of(m, struct delay_monitor, m);
	static const uint64_t zero;
	int fd;

	if (d->count[0])
		return 0;
	if (!find_shim(d->shim, sizeof(d->shim))) {
		snprintf(err, len,
			 SHIM " not found next to %s nor in " PCOST_LIBDIR
			      ": run 'make' (or 'make install')",
			 pcost_self_exe());
		return -ENOENT;
	}
	snprintf(d->count, sizeof(d->count), "%s/probecost-delay-XXXXXX",
		 getenv("TMPDIR") ?: "/tmp");
	fd = mkstemp(d->count);
	if (fd < 0) {
		int e = errno;

		snprintf(err, len, "could not create a counter file: %s", strerror(e));
		d->count[0] = 0;
		return -e;
	}
	d->undo = pcost_cleanup_push(unlink_count, d);
	if (write(fd, &zero, sizeof(zero)) != sizeof(zero)) {
		close(fd);
		snprintf(err, len, "could not write the counter file %s", d->count);
		return -EIO;
	}
	close(fd);
	return 0;
}

static int set_count(const char *path, uint64_t v)
{
	int fd = open(path, O_RDWR | O_CLOEXEC), rc = 0;

	if (fd < 0)
		return -errno;
	if (pwrite(fd, &v, sizeof(v), 0) != sizeof(v))
		rc = -EIO;
	close(fd);
	return rc;
}

static int delay_wrap(struct pcost_monitor *m, struct pcost_launch *l)
{
	struct delay_monitor *d = container_of(m, struct delay_monitor, m);
	const char *old = getenv("LD_PRELOAD");
	char ns[32];
	char *pre;

	snprintf(ns, sizeof(ns), "%llu", (unsigned long long)d->ns);
	pre = old && *old ? xasprintf("%s:%s", d->shim, old) : xstrdup(d->shim);
	pcost_launch_setenv(l, "LD_PRELOAD", pre);
	pcost_launch_setenv(l, "PCOST_DELAY_NS", ns);
	pcost_launch_setenv(l, "PCOST_DELAY_COUNT", d->count);
	free(pre);
	return set_count(d->count, 0);
}

static int delay_stop(struct pcost_monitor *m, struct pcost_run_sample *smp)
{
	struct delay_monitor *d = container_of(m, struct delay_monitor, m);
	int fd = open(d->count, O_RDONLY | O_CLOEXEC);
	uint64_t v;

	if (fd < 0)
		return -errno;
	if (pread(fd, &v, sizeof(v), 0) == sizeof(v))
		smp->monitor_events = (int64_t)v;
	close(fd);
	return 0;
}

static void delay_cleanup(struct pcost_monitor *m)
{
	struct delay_monitor *d = container_of(m, struct delay_monitor, m);

	if (d->undo >= 0) {
		pcost_cleanup_pop(d->undo, 1);
		d->undo = -1;
	}
	d->count[0] = 0;
}

static void delay_free(struct pcost_monitor *m)
{
	delay_cleanup(m);
	free(container_of(m, struct delay_monitor, m));
}

static bool delay_available_def(char *why, size_t len)
{
	char shim[PATH_MAX];

	if (!find_shim(shim, sizeof(shim))) {
		snprintf(why, len, SHIM " not built: run 'make'");
		return false;
	}
	return true;
}

static bool delay_available(const struct pcost_monitor *m, char *why, size_t len)
{
	return delay_available_def(why, len);
}

static const struct pcost_monitor_ops delay_ops = {
	.kind = PCOST_MON_PRELOAD,
	.available = delay_available,
	.prepare = delay_prepare,
	.wrap = delay_wrap,
	.stop = delay_stop,
	.cleanup = delay_cleanup,
	.free = delay_free,
};

/* ns has no default (0 is out of range): delay_new() wants it given.
 * Up to 10 ms a call: more is a sleep, not a probe. */
const struct pcost_param_desc pcost_monitor_delay_params[] = {
	{ "ns", PCOST_PARAM_U64, 0, 1, 10000000, NULL,
	  "nanoseconds each libc read()/write() spins first" },
	{ 0 },
};

static struct pcost_monitor *delay_new(const char *arg, char *err, size_t len)
{
	struct delay_monitor *d;
	uint64_t ns;

	if (!arg || strncmp(arg, "ns=", 3) ||
	    pcost_parse_u64(arg + 3, pcost_monitor_delay_params[0].min,
			    pcost_monitor_delay_params[0].max, &ns) < 0) {
		snprintf(err, len,
			 "monitor 'delay' needs ':ns=N' with N in 1..10000000, e.g. delay:ns=2000");
		return NULL;
	}
	d = xcalloc(1, sizeof(*d));
	d->m.ops = &delay_ops;
	d->ns = ns;
	d->undo = -1;
	snprintf(d->m.name, sizeof(d->m.name), "delay:ns=%llu", (unsigned long long)ns);
	return &d->m;
}

const struct pcost_monitor_def pcost_monitor_def_delay = {
	"delay",
	PCOST_MON_PRELOAD,
	"calibration: delay:ns=N spins N ns in each libc read()/write() (LD_PRELOAD)",
	NULL,
	NULL,
	delay_available_def,
	delay_new
};
