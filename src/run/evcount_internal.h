/* SPDX-License-Identifier: MIT */
/*
 * evcount_internal: the counters of a counting run (run/evcount.h), one file
 * each, and what they share.  Every fd here is closed by an undo that is
 * async-signal-safe (close only): closing a perf fd detaches what it armed
 * (a BPF program, a uprobe and the semaphore it raised), closing a BPF fd
 * frees the program or map once nothing else holds it.
 */
#ifndef PCOST_EVCOUNT_INTERNAL_H
#define PCOST_EVCOUNT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/counted.h"

struct tep_handle;

/* A tracepoint's id and a field's offset in its record, from the tep of tracefs. */
int pcost_evc_tp_id(struct tep_handle *tep, const char *system, const char *event);
int pcost_evc_tp_field(struct tep_handle *tep, const char *system, const char *event,
		       const char *field);

/* Close the first n fds of fds that are >= 0 and set them to -1 (async-signal-safe). */
void pcost_evc_close_fds(int *fds, size_t n);

/*
 * Syscalls by number (evcount_bpf.c): BPF programs on the raw tracepoint sys_enter,
 * sched:sched_process_fork and sched:sched_process_exit that follow the tasks
 * descended from the pids added, and count each one's syscalls by number.
 */
#define PCOST_EVC_BPF_PROGS 3
struct pcost_evc_bpf {
	int pids_fd, counts_fd;
	int prog_fd[PCOST_EVC_BPF_PROGS], link_fd[PCOST_EVC_BPF_PROGS];
};

/* Load and attach (root: CAP_BPF and CAP_PERFMON); 0, or -errno and why. */
int pcost_evc_bpf_open(struct pcost_evc_bpf *b, struct tep_handle *tep, char *why, size_t len);
/* Follow pid (before it runs anything counted) and what it creates; 0 or -errno. */
int pcost_evc_bpf_follow(struct pcost_evc_bpf *b, pid_t pid);
/* The counts into c->by_nr (most frequent first); 0 or -errno and c->by_nr_why. */
int pcost_evc_bpf_read(struct pcost_evc_bpf *b, struct pcost_evcount *c);
/* Detach and free; async-signal-safe. */
void pcost_evc_bpf_close(struct pcost_evc_bpf *b);

/*
 * SDT hits (evcount_sdt.c): each probe of the main executable is a uprobe
 * event in tracefs (group pcost_PID_count; a probe with several sites is one
 * event with its sites appended, each with its semaphore's offset), and each
 * event one perf_event tracepoint counter on the child: inherited by every
 * task it creates, enabled at its exec.  (A perf uprobe-PMU event cannot be
 * inherited: the kernel reads its path from the user memory of the task that
 * forks, and the fork fails with EFAULT.)
 */
struct pcost_evc_sdt_site {
	uint64_t pc_offset, sem_offset; /* file offsets (sem 0: no semaphore) */
	size_t probe;			/* its probe's index in c->probes and events */
};

/* The tracefs event of one probe, and its counter. */
struct pcost_evc_sdt_event {
	char name[64];	       /* the event's name in the group */
	char del[128];	       /* "-:GROUP/EVENT\n", the line that removes it */
	volatile bool defined; /* a site written to uprobe_events (undo removes it) */
	bool journaled;	       /* written down in the journal */
	int fd;		       /* the counter, -1 when closed */
};

struct pcost_evc_sdt {
	char group[32];
	size_t nsites, nevents;
	struct pcost_evc_sdt_site *sites;
	struct pcost_evc_sdt_event *events; /* one per probe, as c->probes */
};

/* Read exe's probes into c->probes; 0 when there are some to count, else why. */
int pcost_evc_sdt_prepare(struct pcost_evc_sdt *s, struct pcost_evcount *c);
/* Open the events on pid; 0, or -errno and c->probes_why. */
int pcost_evc_sdt_open(struct pcost_evc_sdt *s, struct pcost_evcount *c, pid_t pid);
/* The hits into c->probes. */
void pcost_evc_sdt_read(struct pcost_evc_sdt *s, struct pcost_evcount *c);
/* Close the counters and remove the events (async-signal-safe); _free also strikes them
 * from the journal and frees the arrays (not async-signal-safe). */
void pcost_evc_sdt_close(struct pcost_evc_sdt *s);
void pcost_evc_sdt_free(struct pcost_evc_sdt *s);

#endif
