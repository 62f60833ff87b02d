// SPDX-License-Identifier: MIT
/*
 * evcount_sdt: hits per SDT probe of the command's main executable.  Each
 * probe site becomes a uprobe event in tracefs ("p:GROUP/EVENT PATH:0xOFF
 * (0xSEM)", the semaphore through ref_ctr_offset, so guarded probes fire as
 * they do under a tracer), and each event one counting perf_event on the
 * child: inherited by every task it creates and enabled at its exec, when the
 * kernel installs the breakpoints in the new image, in the tree's processes
 * only.  Closing the counters and removing the events takes the breakpoints
 * out and lowers the semaphores (the kernel owns both); the journal
 * (core/journal.h) removes events a killed probecost left.
 */
#include "run/evcount_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/journal.h"
#include "core/tracefs.h"
#include "probes/sdt.h"

#define UPROBE_EVENTS PCOST_TRACEFS "/uprobe_events"
/* Each site is one fd: far below the usual 1024-fd limit with the other counters. */
#define MAX_SITES 512

/* The probe's index in c->probes, added when new. */
static size_t probe_index(struct pcost_evcount *c, const struct pcost_sdt_probe *p)
{
	for (size_t i = 0; i < c->nprobes; i++)
		if (!strcmp(c->probes[i].provider, p->provider) &&
		    !strcmp(c->probes[i].name, p->name))
			return i;
	snprintf(c->probes[c->nprobes].provider, sizeof(c->probes->provider), "%s", p->provider);
	snprintf(c->probes[c->nprobes].name, sizeof(c->probes->name), "%s", p->name);
	c->probes[c->nprobes].hits = -1;
	return c->nprobes++;
}

/* "p12_towers": the probe's number and name, as a tracefs event name. */
static void event_name(char *buf, size_t len, size_t i, const char *probe)
{
	int n = snprintf(buf, len, "p%zu_%.40s", i, probe);

	for (int k = 0; k < n && (size_t)k < len; k++)
		if (!(buf[k] == '_' || (buf[k] >= 'a' && buf[k] <= 'z') ||
		      (buf[k] >= 'A' && buf[k] <= 'Z') || (buf[k] >= '0' && buf[k] <= '9')))
			buf[k] = '_';
}

int pcost_evc_sdt_prepare(struct pcost_evc_sdt *s, struct pcost_evcount *c)
{
	struct pcost_sdt_list l;
	int rc;

	memset(s, 0, sizeof(*s));
	rc = pcost_sdt_read(c->exe, &l);
	if (rc < 0 || !l.n) {
		if (rc < 0)
			snprintf(c->probes_why, sizeof(c->probes_why), "%s: %s", c->exe,
				 pcost_sdt_strerror(rc));
		else
			snprintf(c->probes_why, sizeof(c->probes_why), "%s has no SDT probes",
				 c->exe);
		pcost_sdt_list_release(&l);
		return -ENOENT;
	}
	if (l.n > MAX_SITES || !pcost_sdt_path_ok(c->exe)) {
		if (l.n > MAX_SITES)
			snprintf(c->probes_why, sizeof(c->probes_why),
				 "%s has %zu SDT probe sites, more than the %d counted", c->exe,
				 l.n, MAX_SITES);
		else
			snprintf(c->probes_why, sizeof(c->probes_why),
				 "%s: tracefs takes no such path (blanks, ':' or other characters)",
				 c->exe);
		pcost_sdt_list_release(&l);
		return -EINVAL;
	}
	/* pcost_PID_*: the name the sweeps and the foreign-tracer check know as ours. */
	snprintf(s->group, sizeof(s->group), "pcost_%d_count", (int)getpid());
	s->nsites = l.n;
	s->sites = xcalloc(l.n, sizeof(*s->sites));
	c->probes = xcalloc(l.n, sizeof(*c->probes));
	c->nprobes = 0;
	for (size_t i = 0; i < l.n; i++) {
		struct pcost_evc_sdt_site *site = &s->sites[i];

		site->pc_offset = l.probes[i].pc_offset;
		site->sem_offset = l.probes[i].sem_offset;
		site->probe = probe_index(c, &l.probes[i]);
		c->probes[site->probe].nsites++;
	}
	s->nevents = c->nprobes;
	s->events = xcalloc(c->nprobes, sizeof(*s->events));
	for (size_t p = 0; p < c->nprobes; p++) {
		struct pcost_evc_sdt_event *ev = &s->events[p];

		ev->fd = -1;
		event_name(ev->name, sizeof(ev->name), p, c->probes[p].name);
		snprintf(ev->del, sizeof(ev->del), "-:%s/%s\n", s->group, ev->name);
	}
	pcost_sdt_list_release(&l);
	return 0;
}

/* Write a whole short string to a file; async-signal-safe.  0 or -errno. */
static int write_str(const char *path, const char *str, int flags)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | flags), e = 0;
	ssize_t n, want = (ssize_t)strlen(str);

	if (fd < 0)
		return -errno;
	n = write(fd, str, (size_t)want);
	if (n != want)
		e = n < 0 ? errno : EIO;
	close(fd);
	return -e;
}

/* Define site i as (a probe point of) its probe's uprobe event; 0 or -errno and why. */
static int define_site(struct pcost_evc_sdt *s, size_t i, const struct pcost_evcount *c, char *why,
		       size_t len)
{
	const struct pcost_evc_sdt_site *site = &s->sites[i];
	struct pcost_evc_sdt_event *ev = &s->events[site->probe];
	char line[PATH_MAX + 256], name[128];
	int rc;

	snprintf(name, sizeof(name), "%s/%s", s->group, ev->name);
	if (site->sem_offset)
		snprintf(line, sizeof(line), "p:%s %s:0x%llx(0x%llx)\n", name, c->exe,
			 (unsigned long long)site->pc_offset, (unsigned long long)site->sem_offset);
	else
		snprintf(line, sizeof(line), "p:%s %s:0x%llx\n", name, c->exe,
			 (unsigned long long)site->pc_offset);
	if (!ev->journaled)
		pcost_journal_uprobe(PCOST_TRACEFS, name, c->exe, true);
	ev->journaled = true;
	rc = write_str(UPROBE_EVENTS, line, O_APPEND);
	/* A second site of the same event is appended to it (Linux 5.7+). */
	if (rc == 0)
		ev->defined = true;
	else
		snprintf(why, len, "could not define the uprobe event %s: %s (see %s/error_log)",
			 name, strerror(-rc), PCOST_TRACEFS);
	return rc;
}

/* Open the counter of probe p's event on pid; 0 or -errno and why. */
static int count_event(struct pcost_evc_sdt *s, size_t p, pid_t pid, char *why, size_t len)
{
	struct pcost_evc_sdt_event *ev = &s->events[p];
	char path[PATH_MAX], buf[32];
	struct perf_event_attr attr;
	uint64_t id;
	int rc;

	snprintf(path, sizeof(path), PCOST_TRACEFS "/events/%s/%s/id", s->group, ev->name);
	if (pcost_read_file(path, buf, sizeof(buf)) <= 0 ||
	    pcost_parse_u64(buf, 0, UINT32_MAX, &id) < 0) {
		snprintf(why, len, "could not read %s", path);
		return -EIO;
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = id;
	attr.disabled = 1;
	attr.enable_on_exec = 1;
	attr.inherit = 1;
	ev->fd = (int)syscall(SYS_perf_event_open, &attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (ev->fd < 0) {
		rc = -errno;
		snprintf(why, len, "could not count %s/%s: perf_event_open: %s", s->group, ev->name,
			 strerror(-rc));
		return rc;
	}
	return 0;
}

int pcost_evc_sdt_open(struct pcost_evc_sdt *s, struct pcost_evcount *c, pid_t pid)
{
	char why[256];
	int rc = 0;

	if (!pcost_tracefs_usable("uprobe_events", true, why, sizeof(why))) {
		snprintf(c->probes_why, sizeof(c->probes_why), "%s", why);
		return -EACCES;
	}
	for (size_t i = 0; i < s->nsites && !rc; i++)
		rc = define_site(s, i, c, why, sizeof(why));
	for (size_t p = 0; p < s->nevents && !rc; p++)
		rc = count_event(s, p, pid, why, sizeof(why));
	if (rc) {
		snprintf(c->probes_why, sizeof(c->probes_why), "%s", why);
		pcost_evc_sdt_close(s);
	}
	return rc;
}

void pcost_evc_sdt_read(struct pcost_evc_sdt *s, struct pcost_evcount *c)
{
	bool ok = true;

	for (size_t p = 0; p < c->nprobes && p < s->nevents; p++) {
		uint64_t v;

		if (s->events[p].fd < 0 ||
		    read(s->events[p].fd, &v, sizeof(v)) != (ssize_t)sizeof(v)) {
			c->probes[p].hits = -1;
			ok = false;
		} else {
			c->probes[p].hits = (int64_t)v;
		}
	}
	if (!ok)
		snprintf(c->probes_why, sizeof(c->probes_why),
			 "could not read every probe's count");
	c->probes_counted = ok;
}

void pcost_evc_sdt_close(struct pcost_evc_sdt *s)
{
	/* Counters first: an event with an open counter cannot be removed (EBUSY). */
	for (size_t p = 0; s->events && p < s->nevents; p++) {
		if (s->events[p].fd >= 0)
			close(s->events[p].fd);
		s->events[p].fd = -1;
	}
	for (size_t p = 0; s->events && p < s->nevents; p++) {
		if (s->events[p].defined)
			write_str(UPROBE_EVENTS, s->events[p].del, O_APPEND);
		s->events[p].defined = false;
	}
}

void pcost_evc_sdt_free(struct pcost_evc_sdt *s)
{
	char name[128];

	pcost_evc_sdt_close(s);
	for (size_t p = 0; s->events && p < s->nevents; p++) {
		if (!s->events[p].journaled)
			continue;
		snprintf(name, sizeof(name), "%s/%s", s->group, s->events[p].name);
		pcost_journal_uprobe(PCOST_TRACEFS, name, NULL, false);
	}
	free(s->sites);
	free(s->events);
	s->sites = NULL;
	s->events = NULL;
	s->nsites = s->nevents = 0;
}
