// SPDX-License-Identifier: MIT
/*
 * papi_dl: PAPI, loaded when `counters --via papi` first needs it
 * (core/dynlib.h: PAPI with libpfm added to every probecost start, every
 * workload run's included: bench/results/coverage.md).  papi.c keeps
 * calling PAPI's own names;
 * they are defined here and forward to the loaded library.
 */
#include <papi.h>

#include "core/dynlib.h"
#include "counters/counters.h"

static char not_loaded[] = "PAPI is not loaded";

#define PAPI_FUNCS(F, V)                                                                           \
	F(int, PAPI_add_named_event, (int set, const char *name), (set, name), PAPI_ENOINIT)       \
	F(int, PAPI_cleanup_eventset, (int set), (set), PAPI_ENOINIT)                              \
	F(int, PAPI_create_eventset, (int *set), (set), PAPI_ENOINIT)                              \
	F(int, PAPI_destroy_eventset, (int *set), (set), PAPI_ENOINIT)                             \
	F(int, PAPI_get_component_index, (const char *name), (name), PAPI_ENOINIT)                 \
	F(const PAPI_component_info_t *, PAPI_get_component_info, (int cidx), (cidx), NULL)        \
	F(int, PAPI_library_init, (int version), (version), PAPI_ENOINIT)                          \
	F(int, PAPI_read, (int set, long long *values), (set, values), PAPI_ENOINIT)               \
	V(PAPI_shutdown, (void), ())                                                               \
	F(int, PAPI_start, (int set), (set), PAPI_ENOINIT)                                         \
	F(int, PAPI_state, (int set, int *status), (set, status), PAPI_ENOINIT)                    \
	F(int, PAPI_stop, (int set, long long *values), (set, values), PAPI_ENOINIT)               \
	F(char *, PAPI_strerror, (int code), (code), not_loaded)

PCOST_DL_LIBRARY(papi, "libpapi.so.7.0", "libpapi7.0", PAPI_FUNCS)

const char *pcost_papi_load(void)
{
	return dl_loaded() ? NULL : papi.err;
}
