// SPDX-License-Identifier: MIT
/* tracefs: mount it where needed and put the mount state back; find tracers that are not ours. */
#include "core/tracefs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/bpf.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <tracefs.h>

#include "core/cleanup.h"
#include "core/journal.h"
#include "core/proc.h"
#include "core/util.h"

#define MOUNT_FLAGS (MS_NOSUID | MS_NODEV | MS_NOEXEC)
#define NOT_MOUNTED                                                                                \
	"tracefs is not mounted at " PCOST_TRACEFS ": run as root (probecost mounts it for the "   \
	"run) or mount it (mount -t tracefs nodev " PCOST_TRACEFS ")"

bool pcost_tracefs_mounted(void)
{
	return pcost_tracefs_mounted_at(PCOST_TRACEFS);
}

/* Does this kernel have tracefs at all? */
static bool tracefs_in_kernel(void)
{
	char buf[4096];

	return pcost_read_file("/proc/filesystems", buf, sizeof(buf)) > 0 &&
	       strstr(buf, "\ttracefs\n") != NULL;
}

/* In the child of exists_after_mount: 0 file exists, 1 it does not, 2 no mount here. */
static int look_after_mount(void *arg)
{
	const char *file = arg;
	char path[PATH_MAX];

	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("nodev", PCOST_TRACEFS, "tracefs", MOUNT_FLAGS, NULL))
		return 2;
	snprintf(path, sizeof(path), PCOST_TRACEFS "/%s", file);
	return access(path, F_OK) ? 1 : 0;
}

/*
 * Would file exist once tracefs is mounted?  A child mounts it in its own
 * mount namespace (unshare + private propagation), looks, and exits: the
 * machine's mounts never change.  1 yes, 0 no, -1 could not look (no
 * unshare or mount here: a container without CAP_SYS_ADMIN).
 */
static int exists_after_mount(const char *file)
{
	struct pcost_child c;

	pcost_child_init(&c);
	c.fn = look_after_mount;
	c.arg = (void *)file;
	c.fd[0] = c.fd[1] = c.fd[2] = PCOST_CHILD_KEEP;
	if (pcost_child_start(&c) < 0)
		return -1;
	pcost_child_wait(&c, NULL);
	pcost_child_remove(c.pid);
	if (!WIFEXITED(c.status) || WEXITSTATUS(c.status) > 1)
		return -1;
	return WEXITSTATUS(c.status) == 0;
}

bool pcost_tracefs_usable(const char *file, bool write, char *why, size_t len)
{
	char path[PATH_MAX];

	if (!tracefs_in_kernel()) {
		snprintf(why, len, "this kernel has no tracefs (CONFIG_TRACING)");
		return false;
	}
	snprintf(path, sizeof(path), PCOST_TRACEFS "/%s", file);
	if (pcost_tracefs_mounted()) {
		if (!access(path, write ? W_OK : R_OK))
			return true;
		if (errno == ENOENT)
			snprintf(why, len, "%s is missing: this kernel was built without it", path);
		else
			snprintf(why, len, "%s is not %s: run as root", path,
				 write ? "writable" : "readable");
		return false;
	}
	if (geteuid() != 0) {
		snprintf(why, len, NOT_MOUNTED);
		return false;
	}
	switch (exists_after_mount(file)) {
	case 1:
		return true;
	case 0:
		snprintf(why, len,
			 "%s is missing once tracefs is mounted: this kernel was built "
			 "without it",
			 path);
		return false;
	default:
		snprintf(why, len,
			 "tracefs is not mounted at " PCOST_TRACEFS " and cannot be "
			 "mounted here (no CAP_SYS_ADMIN?): mount it "
			 "(mount -t tracefs nodev " PCOST_TRACEFS ")");
		return false;
	}
}

/* ---- the mount state, put back at exit ---------------------------------------- */

static void restore_mount(void *arg)
{
	if (pcost_cleanup_in_signal()) {
		/* No stdio here: the journal stays, the next sweep unmounts. */
		pcost_journal_keep();
		return;
	}
	if (!pcost_tracefs_mounted()) {
		pcost_journal_del("umount", PCOST_TRACEFS);
		return;
	}
	if (pcost_journal_others_alive()) {
		/* Another probecost here may be using it: the last one unmounts. */
		pcost_journal_keep();
		return;
	}
	/* Busy (a file held open by someone): detach it from the tree all the same. */
	if (umount2(PCOST_TRACEFS, 0) < 0 && errno == EBUSY)
		umount2(PCOST_TRACEFS, MNT_DETACH);
	pcost_journal_del("umount", PCOST_TRACEFS);
}

void pcost_tracefs_begin(void)
{
	static bool done;

	if (done)
		return;
	done = true;
	if (pcost_tracefs_mounted())
		return;
	pcost_journal_add("umount", PCOST_TRACEFS, pcost_mount_ns());
	pcost_cleanup_push(restore_mount, NULL);
}

int pcost_tracefs_mount(char *why, size_t len)
{
	if (pcost_tracefs_mounted())
		return 0;
	if (geteuid() != 0) {
		snprintf(why, len, NOT_MOUNTED);
		return -EPERM;
	}
	/* Put back at exit: begin() is a no-op when run or probes called it already. */
	pcost_tracefs_begin();
	if (mount("nodev", PCOST_TRACEFS, "tracefs", MOUNT_FLAGS, NULL) < 0) {
		int e = errno;

		snprintf(why, len, "could not mount tracefs at %s: %s", PCOST_TRACEFS, strerror(e));
		return -e;
	}
	return 0;
}

/* ---- tracers that are not ours ------------------------------------------------- */

static bool same_file(const char *a, const struct stat *b)
{
	struct stat st;

	return !stat(a, &st) && st.st_dev == b->st_dev && st.st_ino == b->st_ino;
}

/* Another live probecost (not us): its tracers are a warning, not a refusal. */
static int other_probecost;

static bool is_probecost(int pid)
{
	char path[64], exe[PATH_MAX];
	ssize_t n;
	const char *base;

	if (pid <= 0 || pid == (int)getpid())
		return false;
	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	n = readlink(path, exe, sizeof(exe) - 1);
	if (n <= 0)
		return false;
	exe[n] = 0;
	base = strrchr(exe, '/');
	return !strncmp(base ? base + 1 : exe, "probecost", 9);
}

/*
 * Instances named by a probecost that is gone (probecost-PID, pcost_PID_N with
 * no such process): disable their events and remove them.  The journal undoes
 * what a killed probecost left; this catches instances whose journal is lost.
 */
int pcost_tracefs_reap_dead_instances(void)
{
	DIR *d = opendir(PCOST_TRACEFS "/instances");
	struct dirent *e;
	int removed = 0;

	while (d && (e = readdir(d))) {
		char path[PATH_MAX];
		int pid = 0;
		int fd;

		if ((sscanf(e->d_name, "probecost-%d", &pid) != 1 &&
		     sscanf(e->d_name, "pcost_%d_", &pid) != 1) ||
		    pid <= 0 || !kill(pid, 0) || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), PCOST_TRACEFS "/instances/%s/events/enable",
			 e->d_name);
		fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
		if (fd >= 0) {
			if (write(fd, "0", 1) < 0) {
				/* rmdir below disables what is left anyway */
			}
			close(fd);
		}
		snprintf(path, sizeof(path), PCOST_TRACEFS "/instances/%s", e->d_name);
		if (!rmdir(path))
			removed++;
	}
	if (d)
		closedir(d);
	return removed;
}

/* A tracefs name probecost gives (probecost-PID, pcost_PID_N) of a live probecost? */
static bool name_of_live_probecost(const char *name)
{
	int pid = 0;

	if (sscanf(name, "probecost-%d", &pid) != 1 && sscanf(name, "pcost_%d_", &pid) != 1)
		return false;
	if (!is_probecost(pid))
		return false;
	other_probecost = pid;
	return true;
}

/* Is the event's enable file (top level or any instance) on? */
static bool event_enabled(const char *rel)
{
	char path[PATH_MAX], buf[8];
	DIR *d;
	struct dirent *e;
	bool on;

	snprintf(path, sizeof(path), PCOST_TRACEFS "/%s", rel);
	on = pcost_read_file(path, buf, sizeof(buf)) > 0 && buf[0] != '0';
	d = opendir(PCOST_TRACEFS "/instances");
	while (d && !on && (e = readdir(d))) {
		if (e->d_name[0] == '.' || name_of_live_probecost(e->d_name))
			continue;
		snprintf(path, sizeof(path), PCOST_TRACEFS "/instances/%s/%s", e->d_name, rel);
		on = pcost_read_file(path, buf, sizeof(buf)) > 0 && buf[0] != '0';
	}
	if (d)
		closedir(d);
	return on;
}

/* Enabled uprobe events (uprobe_events lines) on one of the binaries. */
static bool tracefs_uprobes(const struct stat *bins, size_t n, char *why, size_t len)
{
	FILE *f = fopen(PCOST_TRACEFS "/uprobe_events", "re");
	char line[1024], group[128], event[128], file[PATH_MAX], rel[300];
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*1[pr]:%127[^/]/%127s %4095[^:]", group, event, file) != 3 ||
		    name_of_live_probecost(group))
			continue;
		snprintf(rel, sizeof(rel), "events/%s/%s/enable", group, event);
		for (size_t i = 0; i < n && !found; i++)
			found = same_file(file, &bins[i]) && event_enabled(rel);
		if (found)
			snprintf(why, len, "the uprobe event %s/%s on %s is enabled", group, event,
				 file);
	}
	if (f)
		fclose(f);
	return found;
}

static int parent_of(int pid)
{
	char path[64], buf[1024], *p;
	int ppid = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (pcost_read_file(path, buf, sizeof(buf)) > 0 && (p = strrchr(buf, ')')))
		sscanf(p + 2, "%*c %d", &ppid);
	return ppid;
}

/* A BPF program another process attached through one of its fds. */
static bool bpf_fd_foreign(int pid, int fd, const struct stat *bins, size_t n, bool syscalls,
			   char *why, size_t len)
{
	char name[PATH_MAX] = "";
	union bpf_attr at;

	memset(&at, 0, sizeof(at));
	at.task_fd_query.pid = (__u32)pid;
	at.task_fd_query.fd = (__u32)fd;
	at.task_fd_query.buf = (__u64)(uintptr_t)name;
	at.task_fd_query.buf_len = sizeof(name) - 1;
	if (syscall(SYS_bpf, BPF_TASK_FD_QUERY, &at, sizeof(at)) < 0)
		return false;
	/* A monitor a probecost started, or a probecost's own counting run (run --count). */
	if (is_probecost(pid) || is_probecost(parent_of(pid))) {
		other_probecost = is_probecost(pid) ? pid : parent_of(pid);
		return false;
	}
	switch (at.task_fd_query.fd_type) {
	case BPF_FD_TYPE_UPROBE:
	case BPF_FD_TYPE_URETPROBE:
		for (size_t i = 0; i < n; i++) {
			if (same_file(name, &bins[i])) {
				snprintf(why, len, "process %d has a BPF program on a uprobe of %s",
					 pid, name);
				return true;
			}
		}
		return false;
	case BPF_FD_TYPE_TRACEPOINT:
	case BPF_FD_TYPE_RAW_TRACEPOINT:
		if (syscalls && (!strncmp(name, "sys_enter", 9) || !strncmp(name, "sys_exit", 8))) {
			snprintf(why, len, "process %d has a BPF program on the %s tracepoint", pid,
				 name);
			return true;
		}
		return false;
	default:
		return false;
	}
}

/* Every perf_event / bpf_link fd of every other process, asked what BPF it runs. */
static bool bpf_foreign(const struct stat *bins, size_t n, bool syscalls, char *why, size_t len)
{
	DIR *d = opendir("/proc"), *fds;
	struct dirent *e, *f;
	bool found = false;

	while (d && !found && (e = readdir(d))) {
		int pid = atoi(e->d_name);
		char path[300];

		if (pid <= 0 || pid == (int)getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%d/fd", pid);
		if (!(fds = opendir(path)))
			continue;
		while (!found && (f = readdir(fds))) {
			char link[300], target[64];
			ssize_t k;

			if (f->d_name[0] == '.')
				continue;
			snprintf(link, sizeof(link), "%s/%s", path, f->d_name);
			k = readlink(link, target, sizeof(target) - 1);
			if (k <= 0)
				continue;
			target[k] = 0;
			if (strcmp(target, "anon_inode:[perf_event]") &&
			    strcmp(target, "anon_inode:bpf_link"))
				continue;
			found = bpf_fd_foreign(pid, atoi(f->d_name), bins, n, syscalls, why, len);
		}
		closedir(fds);
	}
	if (d)
		closedir(d);
	return found;
}

bool pcost_foreign_tracer(const char *const *binaries, size_t n, bool syscalls, int *other,
			  char *why, size_t len)
{
	struct stat *bins = xcalloc(n ? n : 1, sizeof(*bins));
	size_t nb = 0;
	bool found = false;

	other_probecost = 0;
	for (size_t i = 0; i < n; i++)
		if (binaries[i] && !stat(binaries[i], &bins[nb]))
			nb++;
	if (pcost_tracefs_mounted()) {
		found = tracefs_uprobes(bins, nb, why, len);
		if (!found && syscalls && event_enabled("events/raw_syscalls/enable")) {
			snprintf(why, len, "raw_syscalls events are enabled in tracefs");
			found = true;
		}
		if (!found && syscalls && event_enabled("events/syscalls/enable")) {
			snprintf(why, len, "syscalls events are enabled in tracefs");
			found = true;
		}
	}
	if (!found && geteuid() == 0)
		found = bpf_foreign(bins, nb, syscalls, why, len);
	free(bins);
	if (other)
		*other = other_probecost;
	return found;
}

/* dir/name read whole into a new buffer (free); NULL when it cannot be. */
static char *read_whole(const char *dir, const char *name, size_t *size)
{
	size_t cap = 8192, n = 0;
	char *path, *buf = NULL;
	ssize_t r;
	int fd;

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	free(path);
	if (fd < 0)
		return NULL;
	buf = xmalloc(cap);
	while ((r = read(fd, buf + n, cap - n)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			buf = NULL;
			break;
		}
		n += (size_t)r;
		if (n == cap)
			buf = xrealloc(buf, cap *= 2);
	}
	close(fd);
	*size = n;
	return buf;
}

/* Parse the format of every event of system sys; how many parsed. */
static int parse_system(struct tep_handle *tep, const char *events, const char *sys)
{
	char *dir, *buf, name[NAME_MAX + 16];
	struct dirent *d;
	int parsed = 0;
	size_t size;
	DIR *dp;

	if (asprintf(&dir, "%s/%s", events, sys) < 0)
		return 0;
	dp = opendir(dir);
	while (dp && (d = readdir(dp))) {
		if (d->d_type != DT_DIR || d->d_name[0] == '.')
			continue;
		snprintf(name, sizeof(name), "%s/format", d->d_name);
		buf = read_whole(dir, name, &size);
		if (buf && tep_parse_event(tep, buf, size, sys) == TEP_ERRNO__SUCCESS)
			parsed++;
		free(buf);
	}
	if (dp)
		closedir(dp);
	free(dir);
	return parsed;
}

struct tep_handle *pcost_tracefs_formats(const char *dir, const char *const *systems)
{
	struct tep_handle *tep;
	char *events, *buf;
	int parsed = 0;
	size_t size;

	if (!dir)
		dir = tracefs_tracing_dir();
	if (!dir || asprintf(&events, "%s/events", dir) < 0)
		return NULL;
	tep = tep_alloc();
	buf = tep ? read_whole(events, "header_page", &size) : NULL;
	if (buf && tep_parse_header_page(tep, buf, size, sizeof(long)) == 0) {
		tep_set_long_size(tep, sizeof(long));
		tep_set_page_size(tep, (int)sysconf(_SC_PAGESIZE));
		tep_set_file_bigendian(tep,
				       tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
		for (size_t i = 0; systems[i]; i++)
			parsed += parse_system(tep, events, systems[i]);
	}
	free(buf);
	free(events);
	if (!parsed) {
		tep_free(tep);
		return NULL;
	}
	return tep;
}
