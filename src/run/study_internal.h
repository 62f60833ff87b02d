/* SPDX-License-Identifier: MIT */
/* run/study_internal: what study.c, study_targets.c and study_predict.c share, nothing outside. */
#ifndef PCOST_STUDY_INTERNAL_H
#define PCOST_STUDY_INTERNAL_H

struct pcost_study;

/*
 * A user's command without --events: its events counted once, untimed, with
 * the null workload's (st->counted, st->null_counted).  0, -EINTR, or -EIO
 * (error printed) when the command cannot start.
 */
int pcost_study_count_command(struct pcost_study *st);

/*
 * Start --service (before the counting run, or before measuring; nothing is
 * stored when it does not start; 0 when it runs already): 0, -EINTR, or -EIO
 * (error printed).
 */
struct pcost_service;
int pcost_study_service_start(struct pcost_service *sv);

/* One runner configuration per (target, monitor): the command, or each workload at each scale. */
int pcost_study_add_targets(struct pcost_study *st);

/* The unit of a counted kind (PCOST_EVC_*), as a row's events are named ("syscall"). */
const char *pcost_study_paid_unit(int k);

#endif
