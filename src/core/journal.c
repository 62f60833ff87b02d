// SPDX-License-Identifier: MIT
/* journal: changes written down as they happen; the sweep undoes what dead probecost processes left. */
#include "core/journal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/util.h"

static char state_dir[PATH_MAX];
static char journal_path[PATH_MAX + 32];
static int journal_fd = -1;
/* Leftovers the opening sweep undid that no caller has been told of yet. */
static unsigned swept_untold;
static volatile sig_atomic_t keep_journal;

const char *pcost_mount_ns(void)
{
	static char ns[64];

	if (!ns[0]) {
		ssize_t n = readlink("/proc/self/ns/mnt", ns, sizeof(ns) - 1);

		ns[n > 0 ? n : 0] = 0;
	}
	return ns;
}

/* Field 22 of /proc/PID/stat: start time in clock ticks since boot; 0 when gone. */
static unsigned long long start_ticks(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long v = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (pcost_read_file(path, buf, sizeof(buf)) <= 0 || !(p = strrchr(buf, ')')))
		return 0;
	/* After "pid (comm)": state is field 3, starttime field 22. */
	if (sscanf(p + 2,
		   "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d "
		   "%*d %llu",
		   &v) != 1)
		return 0;
	return v;
}

/* Process group of pid, -1 when gone or a zombie (its files are closed). */
static pid_t pgrp_of(pid_t pid)
{
	char path[64], buf[1024], *p, state;
	int pg;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (pcost_read_file(path, buf, sizeof(buf)) <= 0 || !(p = strrchr(buf, ')')))
		return -1;
	return sscanf(p + 2, "%c %*d %d", &state, &pg) == 2 && state != 'Z' ? pg : -1;
}

bool pcost_process_running(pid_t pid)
{
	return pgrp_of(pid) >= 0;
}

/* Any live member of process group pgid? */
static bool group_alive(pid_t pgid)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	bool alive = false;

	while (d && !alive && (e = readdir(d))) {
		int pid = atoi(e->d_name);

		alive = pid > 0 && pgrp_of(pid) == pgid;
	}
	if (d)
		closedir(d);
	return alive;
}

static unsigned long long boot_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

/* The state directory: ours alone (owner, 0700, not a link), made if missing. */
static int make_state_dir(char *err, size_t len)
{
	const char *env = getenv("PROBECOST_STATE_DIR"), *rt = getenv("XDG_RUNTIME_DIR");
	struct stat st;

	if (env && env[0])
		snprintf(state_dir, sizeof(state_dir), "%s", env);
	else if (geteuid() == 0)
		snprintf(state_dir, sizeof(state_dir), "/run/probecost");
	else if (rt && rt[0] == '/')
		snprintf(state_dir, sizeof(state_dir), "%s/probecost", rt);
	else
		snprintf(state_dir, sizeof(state_dir), "/tmp/probecost-%u", (unsigned)geteuid());
	if (mkdir(state_dir, 0700) < 0 && errno != EEXIST) {
		snprintf(err, len, "cannot create the state directory '%s': %s", state_dir,
			 strerror(errno));
		return -errno;
	}
	if (lstat(state_dir, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 077)) {
		snprintf(err, len,
			 "the state directory '%s' is not a private directory of ours "
			 "(owner uid %u, mode %o): remove it or set PROBECOST_STATE_DIR",
			 state_dir, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

static int lock_dir(void)
{
	int fd = open(state_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0)
		while (flock(fd, LOCK_EX) < 0 && errno == EINTR)
			;
	return fd;
}

static void unlock_dir(int fd)
{
	if (fd >= 0)
		close(fd); /* drops the flock */
}

/* Bottom of the undo stack: last thing at exit. */
static void journal_close(void *arg)
{
	if (journal_fd < 0)
		return;
	close(journal_fd);
	journal_fd = -1;
	if (!keep_journal)
		unlink(journal_path);
}

static void journal_exit_sweep(void *arg)
{
	/* Not from a signal handler: the sweep reads files with stdio. */
	if (!pcost_cleanup_in_signal())
		pcost_journal_sweep();
}

/* ---- recording ------------------------------------------------------------ */

const char *pcost_state_dir(void)
{
	return state_dir;
}

bool pcost_journal_is_open(void)
{
	return journal_fd >= 0;
}

static void append(const char *line)
{
	if (journal_fd >= 0 && write(journal_fd, line, strlen(line)) < 0) {
		/* a full disk only weakens the SIGKILL case; the undo stack still runs */
	}
}

void pcost_journal_add(const char *kind, const char *key, const char *detail)
{
	char line[PATH_MAX + 600];

	if (journal_fd < 0)
		return;
	snprintf(line, sizeof(line), "+%s %s%s%s\n", kind, key, detail ? " " : "",
		 detail ? detail : "");
	append(line);
}

void pcost_journal_del(const char *kind, const char *key)
{
	char line[PATH_MAX + 64];

	if (journal_fd < 0)
		return;
	snprintf(line, sizeof(line), "-%s %s\n", kind, key);
	append(line);
}

void pcost_journal_child(pid_t pgid, bool add)
{
	char key[24], boot[24];

	if (journal_fd < 0)
		return;
	snprintf(key, sizeof(key), "%d", (int)pgid);
	snprintf(boot, sizeof(boot), "%llu", boot_ns());
	if (add)
		pcost_journal_add("pgid", key, boot);
	else
		pcost_journal_del("pgid", key);
}

void pcost_journal_keep(void)
{
	keep_journal = 1;
}

/* ---- undoing one record ----------------------------------------------------- */

/*
 * Kill group pgid unless its number now belongs to a process started after
 * boot, and wait (up to 3 s) until it is gone: its tracers must be detached
 * before anyone measures.
 */
static bool kill_group(pid_t pgid, unsigned long long boot)
{
	unsigned long long ticks = start_ticks(pgid);
	long hz = sysconf(_SC_CLK_TCK);
	const struct timespec tick = { 0, 10 * 1000 * 1000 };

	/* A live leader is ours only if it started by the time we wrote it down;
	 * with the leader gone, the number cannot be reused while members hold it. */
	if (ticks && pgrp_of(pgid) == pgid &&
	    (hz <= 0 || ticks * (1000000000ULL / (unsigned long long)hz) > boot))
		return false;
	if (!group_alive(pgid) || kill(-pgid, SIGKILL) < 0)
		return false;
	for (int i = 0; i < 300 && group_alive(pgid); i++)
		nanosleep(&tick, NULL);
	return true;
}

bool pcost_tracefs_mounted_at(const char *path)
{
	FILE *f = fopen("/proc/self/mounts", "re");
	char line[1024], dev[256], mnt[PATH_MAX], type[64];
	bool yes = false;

	while (f && !yes && fgets(line, sizeof(line), f))
		yes = sscanf(line, "%255s %4095s %63s", dev, mnt, type) == 3 &&
		      !strcmp(mnt, path) && !strcmp(type, "tracefs");
	if (f)
		fclose(f);
	return yes;
}

/* Undo an instance record: rmdir it, its tracing off first. */
static void tracefs_rmdir_instance(const char *path)
{
	char enable[PATH_MAX + 16];
	int fd;

	/* Off first: rmdir fails (EBUSY) while a reader holds a file open, events stay off. */
	snprintf(enable, sizeof(enable), "%s/tracing_on", path);
	fd = open(enable, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, "0", 1) < 0) {
			/* rmdir below is what matters */
		}
		close(fd);
	}
	rmdir(path);
}

/* Undo a uprobe record: remove the event name ("GROUP/EVENT") from
 * dir/uprobe_events while it is defined on file. */
static bool uprobe_event_remove(const char *dir, const char *name, const char *file)
{
	char path[PATH_MAX + 32], cur[1024], n[160], f[PATH_MAX], del[200];
	bool found = false;
	FILE *fp;
	int fd;

	snprintf(path, sizeof(path), "%s/uprobe_events", dir);
	if (!(fp = fopen(path, "re")))
		return false;
	/* "p:GROUP/EVENT PATH:0xOFF(0xSEM)": ours only while it is on the same file. */
	while (!found && fgets(cur, sizeof(cur), fp))
		found = sscanf(cur, "%*1[pr]:%159s %4095[^:]", n, f) == 2 && !strcmp(n, name) &&
			!strcmp(f, file);
	fclose(fp);
	if (!found)
		return false;
	snprintf(del, sizeof(del), "-:%s\n", name);
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return false;
	found = write(fd, del, strlen(del)) == (ssize_t)strlen(del);
	close(fd);
	return found;
}

void pcost_journal_uprobe(const char *dir, const char *name, const char *file, bool add)
{
	char detail[PATH_MAX + 200];

	if (!add) {
		pcost_journal_del("uprobe", name);
		return;
	}
	snprintf(detail, sizeof(detail), "%s %s", dir, file);
	pcost_journal_add("uprobe", name, detail);
}

/* A private directory of ours (not a link) and all in it. */
static bool remove_tmpdir(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
		return false;
	return pcost_remove_tree(path, geteuid());
}

/*
 * A build-id cache entry: the link .debug/.build-id/XX/REST and the directory
 * it points to (.debug/PATH/BUILDID, holding perf's copy of the binary and its
 * SDT list), only while the link points inside that .debug.
 */
static bool remove_buildid(const char *link)
{
	char target[PATH_MAX], dir[2 * PATH_MAX], *slash;
	ssize_t n = readlink(link, target, sizeof(target) - 1);

	if (n <= 0 || !strstr(link, "/.build-id/"))
		return false;
	target[n] = 0;
	if (strncmp(target, "../../", 6) || strstr(target + 6, ".."))
		return false;
	snprintf(dir, sizeof(dir), "%s", link);
	if (!(slash = strrchr(dir, '/')))
		return false;
	snprintf(slash + 1, sizeof(dir) - (size_t)(slash + 1 - dir), "%s", target);
	remove_tmpdir(dir);
	return unlink(link) == 0;
}

int pcost_private_dir_make(char *dir, size_t len, char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");

	if (!tmp || tmp[0] != '/')
		tmp = "/tmp";
	snprintf(dir, len, "%s/probecost-XXXXXX", tmp);
	if (!mkdtemp(dir)) {
		int e = errno;

		snprintf(err, errlen, "could not create a private directory in %s: %s", tmp,
			 strerror(e));
		dir[0] = 0;
		return -e;
	}
	pcost_journal_add("tmpdir", dir, NULL);
	return 0;
}

void pcost_private_dir_remove(const char *dir)
{
	if (!dir[0])
		return;
	remove_tmpdir(dir);
	pcost_journal_del("tmpdir", dir);
}

void pcost_journal_rundir(const char *path, const char *pidfile)
{
	char detail[600];
	struct stat st;

	if (lstat(path, &st) < 0)
		return;
	snprintf(detail, sizeof(detail), "%llu:%llu %s", (unsigned long long)st.st_dev,
		 (unsigned long long)st.st_ino, pidfile);
	pcost_journal_add("rundir", path, detail);
}

/*
 * A daemon's run directory that we made: removed while it is still the very
 * directory we made (device and inode, a directory of ours, not a link) and no
 * running process is named by its pid file (the daemon's group is killed
 * first: one running now is someone else's, and the directory theirs).
 */
static bool remove_rundir(const char *path, const char *detail)
{
	unsigned long long dev, ino;
	char pidfile[256] = "", file[PATH_MAX + 300], buf[32];
	struct stat st;
	int pid;

	if (sscanf(detail, "%llu:%llu %255s", &dev, &ino, pidfile) < 2 || lstat(path, &st) < 0 ||
	    !S_ISDIR(st.st_mode) || st.st_uid != geteuid() || st.st_dev != dev || st.st_ino != ino)
		return false;
	snprintf(file, sizeof(file), "%s/%s", path, pidfile);
	if (pidfile[0] && pcost_read_file(file, buf, sizeof(buf)) > 0 && (pid = atoi(buf)) > 0 &&
	    pcost_process_running(pid))
		return false;
	return pcost_remove_tree(path, geteuid());
}

/* Is any process in mount namespace ns? */
static bool ns_in_use(const char *ns)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	bool used = false;

	while (d && !used && (e = readdir(d))) {
		char path[64], cur[64];
		ssize_t n;

		if (atoi(e->d_name) <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/ns/mnt", e->d_name);
		n = readlink(path, cur, sizeof(cur) - 1);
		used = n > 0 && (cur[n] = 0, !strcmp(cur, ns));
	}
	if (d)
		closedir(d);
	return used;
}

/*
 * A dead probecost's tracefs mount: ours to remove when in our namespace and
 * nobody else lives there who may use it.  false: keep the record.
 */
static bool undo_umount(const char *path, const char *ns)
{
	if (strcmp(ns, pcost_mount_ns()))
		return !ns_in_use(ns); /* another namespace: gone with it, or not ours to touch */
	if (pcost_journal_others_alive())
		return false;
	if (pcost_tracefs_mounted_at(path) && umount2(path, 0) < 0 && errno == EBUSY)
		umount2(path, MNT_DETACH);
	return true;
}

/* ---- the sweep ---------------------------------------------------------------- */

struct record {
	char kind[16];
	char key[PATH_MAX];
	char detail[640];
	bool live;
};

static const char *const undo_order[] = { "pgid",   "instance", "uprobe", "buildid",
					  "tmpdir", "rundir",	"umount" };

/* Undo one record; false when it must be kept (a mount still in use). */
static bool undo_record(const struct record *r, unsigned *n)
{
	if (!strcmp(r->kind, "pgid")) {
		*n += kill_group(atoi(r->key), strtoull(r->detail, NULL, 10));
	} else if (!strcmp(r->kind, "instance")) {
		struct stat st;

		if (!stat(r->key, &st)) {
			tracefs_rmdir_instance(r->key);
			(*n)++;
		}
	} else if (!strcmp(r->kind, "uprobe")) {
		char dir[PATH_MAX], file[PATH_MAX];

		if (sscanf(r->detail, "%4095s %4095s", dir, file) == 2)
			*n += uprobe_event_remove(dir, r->key, file);
	} else if (!strcmp(r->kind, "buildid")) {
		*n += remove_buildid(r->key);
	} else if (!strcmp(r->kind, "tmpdir")) {
		*n += remove_tmpdir(r->key);
	} else if (!strcmp(r->kind, "rundir")) {
		*n += remove_rundir(r->key, r->detail);
	} else if (!strcmp(r->kind, "umount")) {
		bool was = pcost_tracefs_mounted_at(r->key);

		if (!undo_umount(r->key, r->detail))
			return false;
		*n += was && !pcost_tracefs_mounted_at(r->key);
	}
	return true;
}

static size_t read_records(FILE *f, struct record **out)
{
	struct record *v = NULL;
	size_t n = 0, cap = 0;
	char line[PATH_MAX + 700];

	while (fgets(line, sizeof(line), f)) {
		char kind[16], key[PATH_MAX];
		int off = 0;

		line[strcspn(line, "\n")] = 0;
		if ((line[0] != '+' && line[0] != '-') ||
		    sscanf(line + 1, "%15s %4095s %n", kind, key, &off) < 2)
			continue;
		if (line[0] == '-') {
			for (size_t i = n; i-- > 0;)
				if (v[i].live && !strcmp(v[i].kind, kind) &&
				    !strcmp(v[i].key, key)) {
					v[i].live = false;
					break;
				}
			continue;
		}
		xgrow((void **)&v, &cap, n + 1, sizeof(*v));
		snprintf(v[n].kind, sizeof(v[n].kind), "%s", kind);
		snprintf(v[n].key, sizeof(v[n].key), "%s", key);
		snprintf(v[n].detail, sizeof(v[n].detail), "%s", off ? line + 1 + off : "");
		v[n++].live = true;
	}
	*out = v;
	return n;
}

/* Owner of a journal: alive (not us)?  *self: it is ours. */
static bool owner_alive(FILE *f, bool *self)
{
	int pid = 0;
	unsigned long long start = 0;

	*self = false;
	if (fscanf(f, "owner %d %llu %*s\n", &pid, &start) < 2 || pid <= 0)
		return false;
	if (pid == (int)getpid() && start == start_ticks(getpid())) {
		*self = true;
		return true;
	}
	return start_ticks(pid) == start;
}

/* Undo a dead owner's journal; true when it can be removed. */
static bool sweep_file(FILE *f, unsigned *n)
{
	struct record *v = NULL;
	size_t nr = read_records(f, &v);
	bool done = true;

	for (size_t k = 0; k < ARRAY_SIZE(undo_order); k++)
		for (size_t i = nr; i-- > 0;)
			if (v[i].live && !strcmp(v[i].kind, undo_order[k]) &&
			    !undo_record(&v[i], n))
				done = false;
	free(v);
	return done;
}

static unsigned sweep_locked(void)
{
	DIR *d = opendir(state_dir);
	struct dirent *e;
	unsigned n = 0;

	while (d && (e = readdir(d))) {
		char path[PATH_MAX + 300];
		size_t l = strlen(e->d_name);
		bool self;
		FILE *f;

		if (l < 9 || strcmp(e->d_name + l - 8, ".journal"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", state_dir, e->d_name);
		if (!(f = fopen(path, "re")))
			continue;
		if (!owner_alive(f, &self) && sweep_file(f, &n))
			unlink(path);
		fclose(f);
	}
	if (d)
		closedir(d);
	return n;
}

unsigned pcost_journal_sweep(void)
{
	int lk;
	unsigned n;

	if (!state_dir[0])
		return 0;
	lk = lock_dir();
	n = sweep_locked();
	unlock_dir(lk);
	return n;
}

bool pcost_journal_others_alive(void)
{
	DIR *d = state_dir[0] ? opendir(state_dir) : NULL;
	struct dirent *e;
	bool alive = false;

	while (d && !alive && (e = readdir(d))) {
		char path[PATH_MAX + 300], ns[64] = "";
		int pid = 0;
		unsigned long long start = 0;
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", state_dir, e->d_name);
		if (!strstr(e->d_name, ".journal") || !(f = fopen(path, "re")))
			continue;
		if (fscanf(f, "owner %d %llu %63s", &pid, &start, ns) == 3 &&
		    pid != (int)getpid() && !strcmp(ns, pcost_mount_ns()) &&
		    start_ticks(pid) == start)
			alive = true;
		fclose(f);
	}
	if (d)
		closedir(d);
	return alive;
}

int pcost_journal_open(unsigned *swept, char *err, size_t len)
{
	char head[160];
	unsigned n;
	int lk, rc;

	if (swept)
		*swept = 0;
	if (journal_fd >= 0) {
		/* Opened first by one that did not ask (a counting run, a service's log):
		 * the first that asks is told, so the run still says what it undid. */
		if (swept) {
			*swept = swept_untold;
			swept_untold = 0;
		}
		return 0;
	}
	if ((rc = make_state_dir(err, len)) < 0)
		return rc;
	lk = lock_dir();
	n = sweep_locked();
	/* PID and start time: a reused PID never meets a dead process's file. */
	snprintf(journal_path, sizeof(journal_path), "%s/%d-%llu.journal", state_dir, (int)getpid(),
		 start_ticks(getpid()));
	journal_fd = open(journal_path,
			  O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (journal_fd < 0) {
		rc = -errno;
		unlock_dir(lk);
		snprintf(err, len, "cannot create '%s': %s", journal_path, strerror(-rc));
		return rc;
	}
	snprintf(head, sizeof(head), "owner %d %llu %s\n", (int)getpid(), start_ticks(getpid()),
		 pcost_mount_ns()[0] ? pcost_mount_ns() : "?");
	append(head);
	unlock_dir(lk);
	pcost_cleanup_push(journal_close, NULL);
	pcost_cleanup_push(journal_exit_sweep, NULL);
	pcost_child_set_recorder(pcost_journal_child);
	if (swept)
		*swept = n;
	else
		swept_untold = n;
	return 0;
}
