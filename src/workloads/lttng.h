/* SPDX-License-Identifier: MIT */
/*
 * lttng: the LTTng-UST builds of the probe workloads live in a shared object
 * (build/lttng/pcost-lttng.so, mk/probes.mk) that only a workload process
 * loads, so liblttng-ust (its constructor registers with a session daemon and
 * starts threads) never runs inside probecost itself.
 */
#ifndef PCOST_WL_LTTNG_H
#define PCOST_WL_LTTNG_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Path of pcost-lttng.so into buf: $PROBECOST_LTTNG_SO, else build/lttng/ or
 * lttng/ beside the running executable, else the installed PCOST_LIBDIR;
 * false and the places looked at in why when none exists.
 */
bool pcost_lttng_so_path(char *buf, size_t len, char *why, size_t wlen);
/* dlopen it (once) and look name up; NULL with an error printed. */
void *pcost_lttng_sym(const char *name);

#endif
