// SPDX-License-Identifier: MIT
/* service: the server a session loads: started, known ready, watched, stopped (see service.h). */
#include "run/service.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <regex.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/journal.h"
#include "core/ptree.h"
#include "monitors/monitor.h"

#define LOG_NAME "service.log"
/* How often the log is read while waiting for readiness. */
#define READY_POLL_US 5000

/* Its log's path, built without snprintf (the undo runs in a signal handler). */
static void log_path(const struct pcost_service *sv, char *buf, size_t len)
{
	size_t dl = strlen(sv->dir);

	if (dl + sizeof("/" LOG_NAME) > len) {
		buf[0] = 0;
		return;
	}
	memcpy(buf, sv->dir, dl);
	memcpy(buf + dl, "/" LOG_NAME, sizeof("/" LOG_NAME));
}

/* Undo for a second Ctrl-C and exits that skip the stop: async-signal-safe calls only. */
static void service_undo(void *arg)
{
	struct pcost_service *sv = arg;
	char path[PATH_MAX + 16];

	if (sv->proc.pid > 0) {
		kill(-sv->proc.pid, SIGKILL);
		kill(sv->proc.pid, SIGKILL);
	}
	if (sv->dir[0]) {
		log_path(sv, path, sizeof(path));
		unlink(path);
		rmdir(sv->dir);
	}
}

void pcost_service_init(struct pcost_service *sv, char *const argv[], const char *ready,
			const struct pcost_service_opts *o)
{
	const char *base;

	memset(sv, 0, sizeof(*sv));
	sv->argv = pcost_argv_dup(argv);
	sv->ready = ready ? xstrdup(ready) : NULL;
	sv->o = *o;
	if (sv->o.ready_timeout_s <= 0)
		sv->o.ready_timeout_s = 10;
	if (sv->o.stop_grace_s <= 0)
		sv->o.stop_grace_s = 10;
	sv->status = -1;
	sv->logfd = -1;
	sv->undo = -1;
	sv->proc.out = sv->proc.err = -1;
	sv->keeper.fd = -1;
	base = strrchr(argv[0], '/');
	snprintf(sv->name, sizeof(sv->name), "%s", base ? base + 1 : argv[0]);
}

/* The last lines of its log, joined " | " (at most len), "" when it printed nothing. */
static void log_tail(const struct pcost_service *sv, char *out, size_t len)
{
	char path[PATH_MAX + 16], buf[1024];
	int fd;
	ssize_t n = 0;
	off_t size;
	size_t o = 0, lines = 0;
	char *p;

	out[0] = 0;
	log_path(sv, path, sizeof(path));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return;
	size = lseek(fd, 0, SEEK_END);
	if (size > 0)
		n = pread(fd, buf, sizeof(buf) - 1,
			  size > (off_t)sizeof(buf) - 1 ? size - (off_t)sizeof(buf) + 1 : 0);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = 0;
	/* The last three non-empty lines, oldest first. */
	p = buf + n;
	while (p > buf && lines < 3) {
		char *end = p;

		while (end > buf && (end[-1] == '\n' || end[-1] == '\r'))
			end--;
		p = end;
		while (p > buf && p[-1] != '\n')
			p--;
		if (end > p)
			lines++;
		if (p == buf || lines == 3)
			break;
	}
	for (char *l = p; *l && o < len;) {
		size_t k = strcspn(l, "\n");

		if (k && strspn(l, " \t\r") < k)
			o += (size_t)snprintf(out + o, len - o, "%s%.*s", o ? " | " : "",
					      (int)(k - (l[k - 1] == '\r')), l);
		l += k + (l[k] == '\n');
	}
}

/* How it ended (reaped): "exit 1: its last line", "killed by SIGSEGV". */
static void ended_why(const struct pcost_service *sv, char *why, size_t len)
{
	char tail[400];
	int st = sv->status, n;

	log_tail(sv, tail, sizeof(tail));
	n = pcost_wait_status_text(st, WIFSIGNALED(st) ? NULL : tail, why, len);
	if (WIFSIGNALED(st) && tail[0] && n >= 0 && (size_t)n < len)
		snprintf(why + n, len - (size_t)n, "; its last output: %s", tail);
}

/*
 * The processes its leader (of group pgid) left that are ours now (we are the
 * child subreaper): our children in a session of their own (a daemon's setsid)
 * or in its group, other than its keeper.  Those that already exited are
 * reaped here.  How many live ones went into out (at most max).
 */
static size_t adopted(const struct pcost_service *sv, pid_t pgid, pid_t *out, size_t max)
{
	pid_t self = getpid(), sid = getsid(0);
	size_t n = 0;
	struct dirent *e;
	DIR *d = opendir("/proc");

	while (d && (e = readdir(d))) {
		char path[64], buf[512], *p, state;
		int ppid, pgrp, session;
		pid_t pid = (pid_t)strtol(e->d_name, &p, 10);
		ssize_t k;
		int fd;

		if (*p || pid <= 0 || pid == sv->keeper.pid)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			continue;
		k = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		/* "pid (comm) state ppid pgrp session ...": comm may hold anything but the last ')'. */
		if (k <= 0 || (buf[k] = '\0', !(p = strrchr(buf, ')'))) ||
		    sscanf(p + 1, " %c %d %d %d", &state, &ppid, &pgrp, &session) != 4)
			continue;
		if (ppid != self || (session == sid && pgrp != pgid))
			continue;
		if (state == 'Z')
			waitpid(pid, NULL, WNOHANG);
		else if (n < max)
			out[n++] = pid;
	}
	if (d)
		closedir(d);
	return n;
}

/* The command name of process pid ("?" when gone). */
static void comm_of(pid_t pid, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(buf, len, "?");
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if ((f = fopen(path, "re"))) {
		if (fgets(buf, (int)len, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
}

/*
 * Its leader exited with status st: a daemon it left (leader exited 0, a
 * process of its own adopted by us) becomes the service; true then.  A
 * double fork's middle process exits soon after: waited for, 100 ms at most.
 */
static bool follow(struct pcost_service *sv, int st)
{
	pid_t leader = sv->proc.pid, kids[4];
	size_t n = 0;
	char comm[64];

	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return false;
	for (int i = 0; i < 20 && !(n = adopted(sv, leader, kids, ARRAY_SIZE(kids))); i++)
		usleep(5000);
	if (n != 1)
		return false;
	pcost_journal_child(leader, false);
	pcost_keeper_release(&sv->keeper);
	sv->proc.pid = kids[0];
	pcost_journal_child(kids[0], true);
	if (pcost_keeper_start(&sv->keeper, kids[0], (unsigned)(sv->o.stop_grace_s + 0.999)) < 0)
		sv->keeper.pid = 0;
	comm_of(kids[0], comm, sizeof(comm));
	snprintf(sv->followed, sizeof(sv->followed),
		 "the service '%s' daemonized: its first process (pid %d) exited 0 and left "
		 "pid %d (%s), which is measured and stopped as the service",
		 sv->name, (int)leader, (int)kids[0], comm);
	return true;
}

/* It exited: reaped, its records dropped, its keeper let go. */
static void ended(struct pcost_service *sv, int status)
{
	pid_t left[64];
	size_t n = adopted(sv, sv->proc.pid, left, ARRAY_SIZE(left));

	sv->status = status;
	kill(-sv->proc.pid, SIGKILL); /* what is left of its group */
	/* What it left in sessions of their own (a daemon it started) goes too, and is reaped. */
	if (n) {
		char comm[64];

		comm_of(left[0], comm, sizeof(comm));
		snprintf(sv->followed, sizeof(sv->followed),
			 "the service '%s' ended and left pid %d (%s)%s running: killed", sv->name,
			 (int)left[0], comm, n > 1 ? " and others" : "");
	}
	for (size_t i = 0; i < n; i++) {
		kill(left[i], SIGKILL);
		waitpid(left[i], NULL, 0);
	}
	pcost_journal_child(sv->proc.pid, false);
	sv->proc.pid = 0;
	pcost_keeper_release(&sv->keeper);
}

bool pcost_service_alive(struct pcost_service *sv, char *why, size_t len)
{
	int st;

	if (sv->foreign) {
		if (sv->proc.pid > 0 && pcost_service_pid_runs(sv))
			return true;
		snprintf(why, len, "pid %d (%s) is no longer running", (int)sv->proc.pid, sv->name);
		return false;
	}
	if (sv->proc.pid > 0 && waitpid(sv->proc.pid, &st, WNOHANG) == sv->proc.pid &&
	    !follow(sv, st))
		ended(sv, st);
	if (sv->proc.pid > 0)
		return true;
	if (sv->status == -1)
		snprintf(why, len, "not running");
	else
		ended_why(sv, why, len);
	return false;
}

pid_t pcost_service_pid(const struct pcost_service *sv)
{
	return sv->proc.pid > 0 ? sv->proc.pid : 0;
}

bool pcost_service_cpu(const struct pcost_service *sv, pcost_ns *user, pcost_ns *sys)
{
	return sv->proc.pid > 0 && pcost_ptree_cpu(sv->proc.pid, user, sys);
}

/* The private directory and the log (made once), and the undo action. */
static int open_log(struct pcost_service *sv, char *err, size_t len)
{
	char path[PATH_MAX + 16], jerr[256];
	int rc;

	if (sv->logfd >= 0)
		return 0;
	/*
	 * The journal first: the counting run of the load starts the service before
	 * the runner opens it, and a directory (or a process group) made with no
	 * journal open is not written down, so a SIGKILL of probecost left them.
	 */
	if (!pcost_journal_is_open() && pcost_journal_open(NULL, jerr, sizeof(jerr)) < 0)
		warning("%s", jerr);
	if (!sv->dir[0] && (rc = pcost_private_dir_make(sv->dir, sizeof(sv->dir), err, len)) < 0)
		return rc;
	if (sv->undo < 0)
		sv->undo = pcost_cleanup_push(service_undo, sv);
	log_path(sv, path, sizeof(path));
	sv->logfd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (sv->logfd < 0) {
		rc = -errno;
		snprintf(err, len, "could not create the service's log '%s': %s", path,
			 strerror(-rc));
		return rc;
	}
	return 0;
}

/* Start argv on the session's CPUs (probecost itself there for the moment, ours put back). */
static int start_pinned(struct pcost_service *sv)
{
	cpu_set_t saved;
	bool pin = sv->o.cpu_mask && sched_getaffinity(0, sizeof(saved), &saved) == 0;
	int rc;

	if (pin)
		pcost_pin_mask(sv->o.cpu_mask);
	rc = pcost_proc_start_to(&sv->proc, sv->argv, sv->logfd);
	if (pin)
		sched_setaffinity(0, sizeof(saved), &saved);
	return rc;
}

/* Does a whole line of buf[0..n) match re?  *done: the bytes of whole lines (read on after). */
static bool lines_match(regex_t *re, char *buf, size_t n, size_t *done)
{
	char *line = buf, *nl;

	*done = 0;
	while ((nl = memchr(line, '\n', n - (size_t)(line - buf)))) {
		bool ok;

		*nl = 0;
		ok = regexec(re, line, 0, NULL, 0) == 0;
		*nl = '\n';
		if (ok)
			return true;
		line = nl + 1;
		*done = (size_t)(line - buf);
	}
	return false;
}

/* Does a TCP connection to addr (an IPv4 or IPv6 address) on port succeed? */
static bool connects(const char *addr, int port)
{
	struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_port = htons((uint16_t)port) };
	bool v4 = inet_pton(AF_INET, addr, &a4.sin_addr) == 1, ok = false;
	int fd;

	if (!v4 && inet_pton(AF_INET6, addr, &a6.sin6_addr) != 1)
		return false;
	if ((fd = socket(v4 ? AF_INET : AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0)) >= 0) {
		ok = v4 ? connect(fd, (struct sockaddr *)&a4, sizeof(a4)) == 0
			: connect(fd, (struct sockaddr *)&a6, sizeof(a6)) == 0;
		close(fd);
	}
	return ok;
}

/* Does the service accept on its --ready-port (its address, else 127.0.0.1, else ::1)? */
static bool port_accepts(const struct pcost_service_opts *o)
{
	if (o->ready_addr[0])
		return connects(o->ready_addr, o->ready_port);
	return connects("127.0.0.1", o->ready_port) || connects("::1", o->ready_port);
}

/* "localhost port 6379", "10.0.0.5 port 6379", "::1 port 6379" */
static void port_name(const struct pcost_service_opts *o, char *buf, size_t len)
{
	snprintf(buf, len, "%s port %d", o->ready_addr[0] ? o->ready_addr : "localhost",
		 o->ready_port);
}

/* What the service was waited for, for messages: "a line matching --ready 'RE'", ... */
static void waited_for(const struct pcost_service *sv, char *buf, size_t len)
{
	char port[80];

	port_name(&sv->o, port, sizeof(port));
	if (sv->ready && sv->o.ready_port)
		snprintf(buf, len, "a line matching --ready '%s', then a connection on %s",
			 sv->ready, port);
	else if (sv->ready)
		snprintf(buf, len, "a line matching --ready '%s'", sv->ready);
	else
		snprintf(buf, len, "a connection on %s", port);
}

/*
 * Read its log as it grows until a line matches (no --ready: at once), then try
 * its port (no --ready-port: none) until it accepts; or it exits, the time is up
 * or Ctrl-C.
 */
static int wait_ready(struct pcost_service *sv, off_t off, char *err, size_t len)
{
	pcost_ns deadline = pcost_now_ns() + (pcost_ns)(sv->o.ready_timeout_s * 1e9);
	char path[PATH_MAX + 16], tail[400], what[PATH_MAX], *buf = xmalloc(65536);
	size_t have = 0, done;
	int fd, rc = -ETIMEDOUT, st;
	bool matched = !sv->ready;
	regex_t re;

	log_path(sv, path, sizeof(path));
	waited_for(sv, what, sizeof(what));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 || (sv->ready && regcomp(&re, sv->ready, REG_EXTENDED | REG_NOSUB) != 0)) {
		rc = fd < 0 ? -errno : -EINVAL;
		snprintf(err, len, "could not read the service's log: %s", strerror(-rc));
		if (fd >= 0)
			close(fd);
		free(buf);
		return rc;
	}
	for (;;) {
		ssize_t n = matched ? 0 : pread(fd, buf + have, 65535 - have, off);

		if (n > 0) {
			off += n;
			have += (size_t)n;
			matched = lines_match(&re, buf, have, &done);
			/* The unfinished line stays; a line longer than the buffer is dropped. */
			memmove(buf, buf + done, have - done);
			have -= done;
			if (have >= 65535)
				have = 0;
		}
		if (matched && (!sv->o.ready_port || port_accepts(&sv->o))) {
			rc = 0;
			break;
		}
		if (pcost_interrupted) {
			rc = -EINTR;
			snprintf(err, len, "interrupted while waiting for the service to be ready");
			break;
		}
		if (waitpid(sv->proc.pid, &st, WNOHANG) == sv->proc.pid && !follow(sv, st)) {
			ended(sv, st);
			ended_why(sv, tail, sizeof(tail));
			snprintf(err, len, "the service '%s' exited before it was ready (%s): %s",
				 sv->name, what, tail);
			rc = -EPIPE;
			break;
		}
		if (pcost_now_ns() >= deadline) {
			log_tail(sv, tail, sizeof(tail));
			if (matched) {
				char port[80];

				port_name(&sv->o, port, sizeof(port));
				snprintf(err, len,
					 "the service '%s' was not ready after %g s: nothing "
					 "accepted a TCP connection on %s (--ready-port); %s%s "
					 "(--ready-timeout S waits longer)",
					 sv->name, sv->o.ready_timeout_s, port,
					 tail[0] ? "its last lines: " : "it printed nothing", tail);
			} else {
				snprintf(err, len,
					 "the service '%s' was not ready after %g s: no line of "
					 "its output (stdout and stderr) matched --ready '%s'; "
					 "%s%s (--ready-timeout S waits longer)",
					 sv->name, sv->o.ready_timeout_s, sv->ready,
					 tail[0] ? "its last lines: " : "it printed nothing", tail);
			}
			break;
		}
		if (n <= 0)
			usleep(READY_POLL_US);
	}
	if (sv->ready)
		regfree(&re);
	close(fd);
	free(buf);
	return rc;
}

int pcost_service_start(struct pcost_service *sv, char *err, size_t len)
{
	off_t off;
	int rc;

	if (sv->foreign)
		return pcost_service_pid_check(sv, err, len);
	if (sv->proc.pid > 0)
		return 0;
	if ((rc = open_log(sv, err, len)) < 0)
		return rc;
	sv->status = -1;
	/*
	 * A daemon it forks becomes ours when its parent exits (follow()), also after
	 * it said it was ready; until the session ends, then, so does a process a run
	 * leaves behind its reaped leader (spawn.c kills it: a zombie until we exit).
	 */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	/* This start's output only (a restart appends to the same log), from before it runs. */
	off = lseek(sv->logfd, 0, SEEK_END);
	if (off < 0)
		off = 0;
	if ((rc = start_pinned(sv)) < 0) {
		snprintf(err, len, "could not start the service '%s': %s", sv->name, strerror(-rc));
		return rc;
	}
	sv->starts++;
	/*
	 * Not in cleanup.h's list of groups the first Ctrl-C SIGKILLs: it is stopped
	 * with SIGTERM by the command.  The journal keeps it for a sweep.
	 */
	pcost_child_remove(sv->proc.pid);
	pcost_journal_child(sv->proc.pid, true);
	if ((rc = pcost_keeper_start(&sv->keeper, sv->proc.pid,
				     (unsigned)(sv->o.stop_grace_s + 0.999))) < 0) {
		snprintf(err, len, "could not start the service's keeper: %s", strerror(-rc));
		pcost_service_stop(sv);
		return rc;
	}
	if (!sv->ready && !sv->o.ready_port)
		return 0;
	if ((rc = wait_ready(sv, off, err, len)) < 0)
		pcost_service_stop(sv);
	return rc;
}

int pcost_service_restart(struct pcost_service *sv, char *err, size_t len)
{
	if (sv->foreign) {
		snprintf(err, len, "probecost never restarts a service it did not start");
		return -EPERM;
	}
	pcost_service_stop(sv);
	pcost_proc_release(&sv->proc); /* its buffers: the start makes new ones */
	return pcost_service_start(sv, err, len);
}

void pcost_service_stop(struct pcost_service *sv)
{
	pid_t tree[512], leader = sv->proc.pid;
	size_t n;
	int st;

	if (leader <= 0 || sv->foreign)
		return;
	/* Its processes now: a server's workers may sit in groups of their own (setsid). */
	n = pcost_ptree_pids(leader, tree, ARRAY_SIZE(tree));
	pcost_proc_stop(&sv->proc, SIGTERM, (pcost_ns)(sv->o.stop_grace_s * 1e9));
	st = sv->proc.status;
	sv->proc.pid = leader;
	ended(sv, st);
	/* Its workers left behind get a second to go by themselves, then SIGKILL. */
	for (int i = 0; i < 100; i++) {
		bool any = false;

		for (size_t k = 1; k < n; k++)
			any |= kill(tree[k], 0) == 0;
		if (!any)
			break;
		usleep(10000);
	}
	for (size_t k = 1; k < n; k++)
		kill(tree[k], SIGKILL);
}

void pcost_service_release(struct pcost_service *sv)
{
	if (sv->foreign)
		sv->proc.pid = 0; /* not ours: nothing below may signal or wait for it */
	pcost_service_stop(sv);
	if (sv->logfd >= 0)
		close(sv->logfd);
	sv->logfd = -1;
	if (sv->undo >= 0)
		pcost_cleanup_pop(sv->undo, 0);
	sv->undo = -1;
	pcost_private_dir_remove(sv->dir);
	sv->dir[0] = 0;
	pcost_proc_release(&sv->proc);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	pcost_argv_free(sv->argv);
	free(sv->ready);
	sv->argv = NULL;
	sv->ready = NULL;
}
