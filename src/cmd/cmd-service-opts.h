/* SPDX-License-Identifier: MIT */
/*
 * cmd-service-opts: the rows of the options that start a server around the
 * runs (run and predict take them): --service CMD, --ready REGEX after it (or
 * after run's --attach CMD), --ready-port [ADDR:]PORT, one row macro each
 * (parse-options.h) filling a struct pcost_study_opts (run/study.h), so the
 * two commands parse them alike.  A command puts the rows it takes in its
 * table with its own help text.
 */
#ifndef PCOST_CMD_SERVICE_OPTS_H
#define PCOST_CMD_SERVICE_OPTS_H

#include "cmd/parse-options.h"
#include "run/study.h"

struct pcost_service_args {
	struct pcost_study_opts *o; /* what the rows fill */
	bool attach;		    /* the command takes --attach (run): --ready may follow it */
	int last_ready_owner;	    /* the --attach (1) or --service (2) a --ready follows */
};

/* s is the command's struct pcost_service_args *, h its help text. */
#define OPT_SERVICE_ATTACH(s, h)                                                                   \
	OPT_CALLBACK_RANGE("attach", s, "CMD", 0, 0, NULL, h, pcost_service_owner_opt, 1)
#define OPT_SERVICE(s, h)                                                                          \
	OPT_CALLBACK_RANGE("service", s, "CMD", 0, 0, NULL, h, pcost_service_owner_opt, 2)
#define OPT_SERVICE_READY(s, h) OPT_CALLBACK(0, "ready", s, "REGEX", h, pcost_service_ready_opt)
#define OPT_SERVICE_READY_PORT(s, h)                                                               \
	OPT_CALLBACK(0, "ready-port", s, "[ADDR:]PORT", h, pcost_service_port_opt)

/* The callbacks of the rows above (value: the struct pcost_service_args). */
int pcost_service_owner_opt(const struct pcost_option *opt, const char *arg);
int pcost_service_ready_opt(const struct pcost_option *opt, const char *arg);
int pcost_service_port_opt(const struct pcost_option *opt, const char *arg);

#endif
