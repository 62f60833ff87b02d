// SPDX-License-Identifier: MIT
/*
 * probes/via_uprobe: arm SDT sites with perf_event_open on the uprobe PMU and
 * count hits in the kernel (no ring buffer, no helper process): the cheapest
 * way to arm a probe.  Semaphores through ref_ctr_offset (config:32-63, Linux
 * 4.20+), so guarded probes fire.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "probes/arm.h"

#define UPROBE_PMU "/sys/bus/event_source/devices/uprobe"

struct uprobe_state {
	size_t nfds;
	int fds[]; /* one per site and CPU; -1 when closed */
};

static size_t ncpus_conf(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	return n > 0 ? (size_t)n : 1;
}

/* CPUs the workload may run on (0: all); see pcost_probe_uprobe_set_cpus(). */
static uint64_t cpu_mask;

void pcost_probe_uprobe_set_cpus(uint64_t mask)
{
	cpu_mask = mask;
}

static int uprobe_pmu_type(void)
{
	char buf[32];
	uint64_t t;

	if (pcost_read_file(UPROBE_PMU "/type", buf, sizeof(buf)) < 0 ||
	    pcost_parse_u64(buf, 0, INT32_MAX, &t))
		return -ENOENT;
	return (int)t;
}

static bool uprobe_available(char *why, size_t len)
{
	if (uprobe_pmu_type() < 0) {
		snprintf(why, len, "no uprobe PMU (%s): kernel built without CONFIG_UPROBE_EVENTS",
			 UPROBE_PMU);
		return false;
	}
	if (access(UPROBE_PMU "/format/ref_ctr_offset", R_OK)) {
		snprintf(why, len,
			 "the uprobe PMU has no ref_ctr_offset (Linux < 4.20): "
			 "semaphore-guarded probes would never fire");
		return false;
	}
	return true;
}

/* Undo: async-signal-safe (close only).  Closing the fd unregisters the
 * uprobe and the kernel decrements the semaphore it incremented. */
static void uprobe_undo(void *arg)
{
	struct uprobe_state *st = arg;

	for (size_t i = 0; i < st->nfds; i++) {
		if (st->fds[i] >= 0) {
			close(st->fds[i]);
			st->fds[i] = -1;
		}
	}
}

static int uprobe_prepare(struct pcost_monitor *m, char *err, size_t len)
{
	struct pcost_probe_arm *a = PCOST_PROBE_ARM(m);
	struct uprobe_state *st;

	if (!uprobe_available(err, len))
		return -ENODEV;
	if (!a->priv) {
		st = xcalloc(1, sizeof(*st) + a->nsites * ncpus_conf() * sizeof(int));
		st->nfds = a->nsites * ncpus_conf();
		for (size_t i = 0; i < st->nfds; i++)
			st->fds[i] = -1;
		a->priv = st;
	}
	return 0;
}

/*
 * One counting event per site and CPU, system-wide (pid -1): it counts every
 * process that runs this file's probe site, so nothing else should run the
 * same binary meanwhile.  Each event is a uprobe consumer of its own, and
 * every hit runs every consumer's handler, so the cost per hit grows with the
 * CPUs armed: with --cpu only the workload's CPUs are.  Not per-task with inherit: on Linux 6.18 an
 * inherited uprobe event with a ref_ctr_offset missed the hits of every
 * other run of an exec'd child (tests/cli/t510), the system-wide one none.
 */
static int uprobe_start(struct pcost_monitor *m, pcost_ns timeout_ns, char *err, size_t len)
{
	struct pcost_probe_arm *a = PCOST_PROBE_ARM(m);
	struct uprobe_state *st = a->priv;
	int type = uprobe_pmu_type();
	size_t ncpu = ncpus_conf(), opened = 0;

	if (!st || type < 0) {
		snprintf(err, len, "uprobe: not prepared");
		return -EINVAL;
	}
	if (a->undo < 0)
		a->undo = pcost_cleanup_push(uprobe_undo, st);
	for (size_t i = 0; i < a->nsites; i++) {
		const struct pcost_probe_site *s = &a->sites[i];
		struct perf_event_attr attr;

		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = (uint32_t)type;
		/* config:0 is the PMU's retprobe bit (format/retprobe). */
		attr.config = s->sem_offset << 32 | (s->retprobe ? 1 : 0);
		attr.config1 = (uint64_t)(uintptr_t)a->path; /* uprobe_path */
		attr.config2 = s->pc_offset;		     /* probe_offset */
		for (size_t cpu = 0; cpu < ncpu; cpu++) {
			int fd, e;

			st->fds[i * ncpu + cpu] = -1;
			if (cpu_mask && (cpu >= 64 || !(cpu_mask & (1ull << cpu))))
				continue;
			fd = (int)syscall(SYS_perf_event_open, &attr, -1, (int)cpu, -1,
					  PERF_FLAG_FD_CLOEXEC);
			e = errno;
			st->fds[i * ncpu + cpu] = fd;
			if (fd >= 0) {
				opened++;
				continue;
			}
			if (e == ENODEV)
				continue; /* an offline CPU */
			snprintf(
				err, len,
				"uprobe: perf_event_open(%s:0x%llx, cpu %zu) failed: %s%s", a->path,
				(unsigned long long)s->pc_offset, cpu, strerror(e),
				e == EACCES || e == EPERM
					? " (run as root or give CAP_PERFMON; kernel.perf_event_paranoid)"
					: "");
			uprobe_undo(st);
			return -e;
		}
	}
	if (!opened && a->nsites) {
		snprintf(err, len, "uprobe: no CPU accepted the event");
		return -ENODEV;
	}
	return 0;
}

static int uprobe_stop(struct pcost_monitor *m, struct pcost_run_sample *sample)
{
	struct pcost_probe_arm *a = PCOST_PROBE_ARM(m);
	struct uprobe_state *st = a->priv;
	int64_t total = 0;
	bool ok = true;

	if (!st)
		return 0;
	for (size_t i = 0; i < st->nfds; i++) {
		uint64_t v;

		if (st->fds[i] < 0)
			continue; /* offline CPU */
		if (read(st->fds[i], &v, sizeof(v)) != (ssize_t)sizeof(v))
			ok = false;
		else
			total += (int64_t)v;
	}
	uprobe_undo(st);
	sample->monitor_events = ok ? total : -1;
	if (!ok)
		snprintf(m->note, sizeof(m->note), "uprobe: could not read every counter");
	return 0;
}

static void uprobe_cleanup(struct pcost_monitor *m)
{
	struct pcost_probe_arm *a = PCOST_PROBE_ARM(m);

	if (a->priv)
		uprobe_undo(a->priv);
	if (a->undo >= 0)
		pcost_cleanup_pop(a->undo, 0);
	a->undo = -1;
	free(a->priv);
	a->priv = NULL;
}

static const struct pcost_monitor_ops uprobe_ops = {
	.kind = PCOST_MON_ATTACH,
	.prepare = uprobe_prepare,
	.start = uprobe_start,
	.stop = uprobe_stop,
	.cleanup = uprobe_cleanup,
};

const struct pcost_probe_method pcost_probe_uprobe = {
	.name = "uprobe",
	.summary = "perf_event_open on the uprobe PMU, counting in the kernel (cheapest)",
	.ops = &uprobe_ops,
	.available = uprobe_available,
};
