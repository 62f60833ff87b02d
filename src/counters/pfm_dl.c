// SPDX-License-Identifier: MIT
/*
 * pfm_dl: libpfm, loaded when an event name is first resolved (core/dynlib.h:
 * it added to every probecost start, every workload run's included:
 * bench/results/coverage.md).  events.c
 * keeps calling libpfm's own names; in the probecost binary they are defined
 * here and forward to the loaded library (libprobecost links libpfm itself).
 * Where it cannot be loaded, pfm_initialize fails and event names are not
 * resolved, as on a machine without a PMU table.
 */
#include <perfmon/pfmlib_perf_event.h>

#include "core/dynlib.h"

#define PFM_FUNCS(F, V)                                                                            \
	F(pfm_err_t, pfm_get_event_info, (int idx, pfm_os_t os, pfm_event_info_t *out),            \
	  (idx, os, out), PFM_ERR_NOINIT)                                                          \
	F(int, pfm_get_event_next, (int idx), (idx), -1)                                           \
	F(pfm_err_t, pfm_get_os_event_encoding,                                                    \
	  (const char *str, int dfl_plm, pfm_os_t os, void *args), (str, dfl_plm, os, args),       \
	  PFM_ERR_NOINIT)                                                                          \
	F(pfm_err_t, pfm_get_pmu_info, (pfm_pmu_t pmu, pfm_pmu_info_t * out), (pmu, out),          \
	  PFM_ERR_NOINIT)                                                                          \
	F(pfm_err_t, pfm_initialize, (void), (), PFM_ERR_NOINIT)                                   \
	V(pfm_terminate, (void), ())

PCOST_DL_LIBRARY(pfm, "libpfm.so.4", "libpfm4", PFM_FUNCS)
