// SPDX-License-Identifier: MIT
/*
 * probes/via_stapbpf: SystemTap without kernel modules, `stap --runtime=bpf`
 * (stapbpf), armed and counted like the module-based stap method
 * (probes/via_tooltrace.c).  What SystemTap 4.8's BPF runtime needs, each checked
 * from a machine fact, is the method's unavailable reason when missing:
 *
 *   - a kernel build tree's .config, kernel.release and Module.symvers (stap
 *     reads them even for BPF): the real one, or one probecost writes from
 *     /proc/config.gz into a private temporary directory;
 *   - RLIMIT_MEMLOCK raisable to unlimited (stapbpf insists, although Linux
 *     >= 5.11 charges BPF memory to the cgroup): CAP_SYS_RESOURCE;
 *   - debugfs on /sys/kernel/debug: stapbpf writes
 *     /sys/kernel/debug/tracing/uprobe_events, not tracefs's own mount.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/proc.h"
#include "probes/arm.h"

#define DEBUGFS_UPROBES "/sys/kernel/debug/tracing/uprobe_events"

static void real_tree(char *buf, size_t len)
{
	struct utsname u;

	uname(&u);
	snprintf(buf, len, "/lib/modules/%s/build", u.release);
}

/* Can this process raise RLIMIT_MEMLOCK to unlimited, as stapbpf does?  Tried, then undone. */
static bool memlock_raisable(struct rlimit *old)
{
	struct rlimit inf = { RLIM_INFINITY, RLIM_INFINITY };

	getrlimit(RLIMIT_MEMLOCK, old);
	if (old->rlim_max == RLIM_INFINITY)
		return true;
	if (setrlimit(RLIMIT_MEMLOCK, &inf))
		return false;
	setrlimit(RLIMIT_MEMLOCK, old);
	return true;
}

static bool stap_bpf_available(char *why, size_t len)
{
	char tree[300], cfg[320];
	struct rlimit old;
	size_t off = 0;

	real_tree(tree, sizeof(tree));
	snprintf(cfg, sizeof(cfg), "%s/.config", tree);
	why[0] = '\0';
	if (access(cfg, R_OK) && access("/proc/config.gz", R_OK))
		off += (size_t)snprintf(why + off, len - off,
					"no kernel configuration (%s or "
					"/proc/config.gz) for stap's build-tree checks",
					cfg);
	if (off < len && !memlock_raisable(&old))
		off += (size_t)snprintf(why + off, len - off,
					"%sstapbpf raises RLIMIT_MEMLOCK to unlimited, which needs "
					"CAP_SYS_RESOURCE (hard limit here %llu KiB)",
					off ? "; " : "", (unsigned long long)old.rlim_max / 1024);
	if (off < len && access(DEBUGFS_UPROBES, W_OK))
		off += (size_t)snprintf(why + off, len - off,
					"%sstapbpf writes %s: mount debugfs on /sys/kernel/debug "
					"(tracefs at /sys/kernel/tracing is not enough)",
					off ? "; " : "", DEBUGFS_UPROBES);
	return off == 0;
}

/* Undo of a synthesized tree: remove it.  Signal-safe. */
static void tree_undo(void *arg)
{
	char *dir = arg;

	if (dir[0]) {
		pcost_remove_tree(dir, geteuid());
		dir[0] = '\0';
	}
}

static int write_text(const char *dir, const char *name, const char *text, size_t n)
{
	char path[PATH_MAX];
	int fd;
	ssize_t w;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	w = write(fd, text, n);
	close(fd);
	return w == (ssize_t)n ? 0 : -EIO;
}

/* .config from /proc/config.gz, the release, an empty Module.symvers: what stap checks. */
static int synthesize(const char *dir)
{
	char *argv[] = { "gzip", "-dc", "/proc/config.gz", NULL };
	char rel[400];
	struct utsname u;
	struct pcost_proc p;
	int rc;

	uname(&u);
	if ((rc = pcost_proc_start(&p, argv)))
		return rc;
	pcost_proc_stop(&p, 0, 30ull * 1000 * 1000 * 1000);
	rc = p.status == 0 && p.buf ? write_text(dir, ".config", p.buf, p.len) : -EIO;
	pcost_proc_release(&p);
	snprintf(rel, sizeof(rel), "%s/include/generated", dir);
	if (!rc && (mkdir(rel, 0700) && errno != EEXIST))
		rc = -errno;
	snprintf(rel, sizeof(rel), "%s/include/config", dir);
	if (!rc && (mkdir(rel, 0700) && errno != EEXIST))
		rc = -errno;
	snprintf(rel, sizeof(rel), "%s\n", u.release);
	if (!rc)
		rc = write_text(dir, "include/config/kernel.release", rel, strlen(rel));
	snprintf(rel, sizeof(rel), "#define UTS_RELEASE \"%s\"\n", u.release);
	if (!rc)
		rc = write_text(dir, "include/generated/utsrelease.h", rel, strlen(rel));
	if (!rc)
		rc = write_text(dir, "Module.symvers", "", 0);
	return rc;
}

int pcost_stap_bpf_tree(char *tree, size_t len, int *undo, char *err, size_t elen)
{
	char cfg[PATH_MAX + 16], inc[PATH_MAX + 16];
	int rc;

	real_tree(tree, len);
	snprintf(cfg, sizeof(cfg), "%s/.config", tree);
	if (!access(cfg, R_OK))
		return 0;
	snprintf(tree, len, "/tmp/probecost-stapbpf-XXXXXX");
	if (!mkdtemp(tree)) {
		snprintf(err, elen, "stap-bpf: cannot create a temporary directory: %s",
			 strerror(errno));
		tree[0] = '\0';
		return -errno;
	}
	*undo = pcost_cleanup_push(tree_undo, tree);
	snprintf(inc, sizeof(inc), "%s/include", tree);
	rc = mkdir(inc, 0700) ? -errno : synthesize(tree);
	if (rc)
		snprintf(err, elen,
			 "stap-bpf: cannot write a build tree from /proc/config.gz in "
			 "%s: %s",
			 tree, strerror(-rc));
	return rc;
}

const struct pcost_probe_method pcost_probe_stap_bpf = {
	.name = "stap-bpf",
	.summary = "SystemTap's BPF runtime (stap --runtime=bpf): no kernel module",
	.tool = "stap",
	.package = "systemtap",
	.ops = &pcost_tool_ops,
	.available = stap_bpf_available,
};
