/* SPDX-License-Identifier: MIT */
/* cmd-run-count: `probecost run --count -- COMMAND`, one counting run of the command, printed. */
#ifndef PCOST_CMD_RUN_COUNT_H
#define PCOST_CMD_RUN_COUNT_H

#include <stdint.h>

#include "core/format.h"

/*
 * Count command's events once (run/evcount.h) and print them in format f:
 * the command's stdout goes to /dev/null, its stderr stays ours.  The exit
 * code: 0 counted, 1 it could not run or it failed (the counts are printed
 * all the same), 2 a format other than text, json or csv, 128+N interrupted.
 */
int pcost_run_count(char **command, uint64_t cpu_mask, double timeout_s, enum pcost_format f);

#endif
