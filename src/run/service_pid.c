// SPDX-License-Identifier: MIT
/* service_pid: a running service probecost did not start (run --service-pid): found, checked, never signalled. */
#include "run/service.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/journal.h"
#include "core/proc.h"
#include "core/ptree.h"

/* The command name of process pid ("?" when gone). */
static void comm_of(pid_t pid, char *buf, size_t len)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if (pcost_read_file(path, buf, len) <= 0)
		snprintf(buf, len, "?");
	buf[strcspn(buf, "\n")] = '\0';
}

void pcost_service_init_pid(struct pcost_service *sv, pid_t pid, const struct pcost_service_opts *o)
{
	char *argv[] = { "?", NULL };

	pcost_service_init(sv, argv, NULL, o);
	sv->foreign = true;
	sv->proc.pid = pid;
	comm_of(pid, sv->name, sizeof(sv->name));
}

/* Process pid's state, parent and start time (clock ticks after boot) from /proc; false: gone. */
static bool stat_of(pid_t pid, char *state, pid_t *ppid, unsigned long long *start)
{
	char path[64], buf[1024], *p;
	int pp;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	/* "pid (comm) state ppid ... starttime (22nd)": comm may hold anything but the last ')'. */
	if (pcost_read_file(path, buf, sizeof(buf)) <= 0 || !(p = strrchr(buf, ')')) ||
	    sscanf(p + 1,
		   " %c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d "
		   "%*d %llu",
		   state, &pp, start) != 3)
		return false;
	*ppid = pp;
	return true;
}

/* The pid that traces pid (TracerPid in /proc/PID/status), 0 when none or gone. */
static pid_t tracer_of(pid_t pid)
{
	char path[64], buf[2048], *t;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (pcost_read_file(path, buf, sizeof(buf)) <= 0 || !(t = strstr(buf, "TracerPid:")))
		return 0;
	return (pid_t)strtol(t + 10, NULL, 10);
}

/* The same process as at the start, running (not a zombie)? */
bool pcost_service_pid_runs(const struct pcost_service *sv)
{
	unsigned long long start;
	pid_t ppid;
	char state;

	return stat_of(sv->proc.pid, &state, &ppid, &start) && state != 'Z' && state != 'X' &&
	       (!sv->start_ticks || start == sv->start_ticks);
}

/*
 * A foreign service's start: it runs, and no process of its tree is traced or
 * stopped.  A tracer that a killed probecost left was swept before (its group
 * is in that probecost's journal: pcost_runner_check()); it may take a moment
 * to let go, so a tracer is waited for up to 3 s.  Another tracer would be
 * measured with the monitors, and a stopped service measures nothing: refused.
 */
int pcost_service_pid_check(struct pcost_service *sv, char *err, size_t len)
{
	pid_t tree[512], ppid, tracer = 0, who = 0;
	unsigned long long start;
	char state = 0, comm[64];
	size_t n = 0;

	if (!stat_of(sv->proc.pid, &state, &ppid, &start) || state == 'Z' || state == 'X') {
		snprintf(err, len,
			 "--service-pid %d: no such process is running; give the pid of the "
			 "running service (e.g. $(pidof redis-server))",
			 (int)sv->proc.pid);
		return -ESRCH;
	}
	sv->start_ticks = start;
	for (int i = 0; i < 300; i++) {
		n = pcost_ptree_pids(sv->proc.pid, tree, ARRAY_SIZE(tree));
		tracer = 0;
		for (size_t k = 0; k < n && !tracer; k++)
			if ((tracer = tracer_of(tree[k])))
				who = tree[k];
		if (!tracer)
			break;
		usleep(10000);
	}
	if (tracer) {
		comm_of(tracer, comm, sizeof(comm));
		snprintf(err, len,
			 "--service-pid %d: its process %d is traced by pid %d (%s), which is not "
			 "this probecost's; a monitor measured now would be measured with it: "
			 "stop that tracer first",
			 (int)sv->proc.pid, (int)who, (int)tracer, comm);
		return -EBUSY;
	}
	for (size_t k = 0; k < n; k++) {
		if (stat_of(tree[k], &state, &ppid, &start) && (state == 'T' || state == 't')) {
			snprintf(err, len,
				 "--service-pid %d: its process %d is stopped (state %c); "
				 "probecost does not resume a service it did not start: continue "
				 "it (kill -CONT %d) and run again",
				 (int)sv->proc.pid, (int)tree[k], state, (int)tree[k]);
			return -EBUSY;
		}
	}
	return 0;
}

/* systemd's main process of unit into *pid. */
static int unit_pid(const char *unit, pid_t *pid, char *err, size_t len)
{
	char *argv[] = { "systemctl",  "show", "--property=MainPID", "--value", "--",
			 (char *)unit, NULL };
	char out[256];
	uint64_t u;
	int rc;

	if (access("/run/systemd/system", F_OK) != 0) {
		snprintf(err, len,
			 "--service-pid 'unit:%s': systemd is not running on this machine (no "
			 "/run/systemd/system); give the service's pid, or cgroup:PATH",
			 unit);
		return -ENOTSUP;
	}
	rc = pcost_proc_run(argv, 0, (pcost_ns)10e9, NULL, out, sizeof(out));
	out[strcspn(out, "\n")] = 0;
	if (rc != 0 || pcost_parse_u64(out, 0, INT32_MAX, &u) < 0) {
		snprintf(err, len, "--service-pid 'unit:%s': systemctl show failed (%s%s%s)", unit,
			 rc < 0 ? strerror(-rc) : "exit status", rc < 0 ? "" : " ",
			 rc < 0 ? "" : out);
		return -EINVAL;
	}
	if (!u) {
		snprintf(err, len,
			 "--service-pid 'unit:%s': the unit has no main process running "
			 "(systemctl show: MainPID=0); start it, or give its pid",
			 unit);
		return -ESRCH;
	}
	*pid = (pid_t)u;
	return 0;
}

/* Is pid in list[0..n)? */
static bool pid_in(pid_t pid, const pid_t *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == pid)
			return true;
	return false;
}

/* The one process of cgroup dir whose parent is outside it, into *pid. */
static int cgroup_pid(const char *dir, pid_t *pid, char *err, size_t len)
{
	char path[PATH_MAX], line[32];
	pid_t procs[4096], roots[8], ppid;
	size_t n = 0, nroots = 0;
	unsigned long long start;
	char state;
	FILE *f;

	snprintf(path, sizeof(path), "%s%s/cgroup.procs", dir[0] == '/' ? "" : "/sys/fs/cgroup/",
		 dir);
	if (!(f = fopen(path, "re"))) {
		int e = errno;

		snprintf(
			err, len,
			"--service-pid 'cgroup:%s': cannot read '%s': %s; give the "
			"cgroup's directory (absolute, or under /sys/fs/cgroup) or the service's pid",
			dir, path, strerror(e));
		return -EINVAL;
	}
	while (n < ARRAY_SIZE(procs) && fgets(line, sizeof(line), f))
		if ((procs[n] = (pid_t)strtol(line, NULL, 10)) > 0)
			n++;
	fclose(f);
	for (size_t i = 0; i < n; i++)
		if (stat_of(procs[i], &state, &ppid, &start) && !pid_in(ppid, procs, n) &&
		    nroots < ARRAY_SIZE(roots))
			roots[nroots++] = procs[i];
	if (!nroots) {
		snprintf(err, len, "--service-pid 'cgroup:%s': no process runs in it", dir);
		return -ESRCH;
	}
	if (nroots > 1) {
		snprintf(err, len,
			 "--service-pid 'cgroup:%s': %zu of its processes have their parent "
			 "outside it (%d, %d%s); give the main one's pid",
			 dir, nroots, (int)roots[0], (int)roots[1], nroots > 2 ? ", ..." : "");
		return -EINVAL;
	}
	*pid = roots[0];
	return 0;
}

int pcost_service_pid_resolve(const char *spec, pid_t *pid, char *err, size_t len)
{
	uint64_t u;

	if (!strncmp(spec, "unit:", 5) && spec[5])
		return unit_pid(spec + 5, pid, err, len);
	if (!strncmp(spec, "cgroup:", 7) && spec[7])
		return cgroup_pid(spec + 7, pid, err, len);
	if (pcost_parse_u64(spec, 2, INT32_MAX, &u) < 0) {
		snprintf(err, len,
			 "--service-pid '%s': expected the pid of a running service (a whole "
			 "number above 1), unit:NAME (a systemd unit) or cgroup:PATH",
			 spec);
		return -EINVAL;
	}
	if (!pcost_process_running((pid_t)u)) {
		snprintf(err, len,
			 "--service-pid %s: no such process is running; give the pid of the "
			 "running service (e.g. $(pidof redis-server))",
			 spec);
		return -ESRCH;
	}
	*pid = (pid_t)u;
	return 0;
}
