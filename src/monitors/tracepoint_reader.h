/* SPDX-License-Identifier: MIT */
/*
 * tracepoint_reader: drain the raw_syscalls events of a trace instance while
 * the workload runs, as trace-cmd record does, so that a buffer that wraps
 * never loses them: a thread reads every CPU's trace_pipe_raw (libtracefs),
 * parses the events (libtraceevent's kbuffer) and counts each thread's
 * sys_enter by syscall number; the instance's record-tgid option lets the
 * counts be summed by process afterwards (saved_tgids).
 *
 * Call order: start() once the events are enabled, stop() once they are
 * disabled (it joins the thread and reads what is left), then count() and
 * total(), then free().
 */
#ifndef PCOST_TRACEPOINT_READER_H
#define PCOST_TRACEPOINT_READER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct tracefs_instance;
struct pcost_tp_reader;

/* NULL with a line in err when the instance cannot be read. */
struct pcost_tp_reader *pcost_tp_reader_start(struct tracefs_instance *inst, char *err, size_t len);
void pcost_tp_reader_stop(struct pcost_tp_reader *r);
/* sys_enter events of syscall nr made by process tgid (any of its threads),
 * since its last execve (what the runner's child did before it is not the
 * workload's). */
int64_t pcost_tp_reader_count(const struct pcost_tp_reader *r, pid_t tgid, long nr);
/* Every event recorded: read, and lost when a buffer wrapped all the same. */
int64_t pcost_tp_reader_total(const struct pcost_tp_reader *r);
int64_t pcost_tp_reader_lost(const struct pcost_tp_reader *r);
void pcost_tp_reader_free(struct pcost_tp_reader *r);

#endif
