/* SPDX-License-Identifier: MIT */
/*
 * dynlib: a library loaded when a command first needs it, not at start-up.
 *
 * Every built-in workload runs as `probecost workload NAME`, so whatever the
 * binary links, each workload run loads.  libpq (with GnuTLS, Kerberos and
 * LDAP behind it) and Capstone were most of what start-up cost on the
 * development machine, and the part that moved most from one session to the
 * next (bench/startup-level.sh, bench/results/coverage.md), for commands no
 * workload runs.  Those libraries are bound here, by name, with dlopen(3) and
 * dlsym(3); their callers keep calling the library's own names, which a shim
 * per library (store/pg_dl.c, probes/capstone_dl.c) defines and forwards.
 */
#ifndef PCOST_DYNLIB_H
#define PCOST_DYNLIB_H

#include <stdbool.h>
#include <stddef.h>

struct pcost_dynlib {
	const char *soname;	  /* "libpq.so.5" */
	const char *package;	  /* the Debian package that ships it: "libpq5" */
	const char *const *names; /* the symbols to bind, names[i] into *slots[i] */
	void **const *slots;
	size_t n;
	int state; /* 0 not tried, 1 loaded, -1 failed (err says why) */
	char err[320];
};

/*
 * Load l once and bind every symbol; true when all are bound.  A failure is
 * remembered (it is not retried) and l->err says what and the fix, in one
 * line: "libpq.so.5 could not be loaded (...): install the Debian package libpq5".
 */
bool pcost_dynlib_load(struct pcost_dynlib *l);

/*
 * A shim lists its library's functions once, as F(RET, NAME, (PARAMS), (ARGS),
 * FAIL) and V(NAME, (PARAMS), (ARGS)) for those returning void, and expands it
 * with PCOST_DL_LIBRARY(VAR, SONAME, PACKAGE, LIST): a pointer per function, the
 * names and slots, the library VAR, a static bool dl_loaded(void), and each
 * function under its own name (the library's prototype, from its header, checks
 * it), which loads the library first and returns FAIL, or does nothing, where it
 * cannot be loaded.
 */
#define PCOST_DL_POINTER(ret, name, params, args, fail) static ret(*p_##name) params;
#define PCOST_DL_POINTER_VOID(name, params, args) static void(*p_##name) params;
#define PCOST_DL_FORWARD(ret, name, params, args, fail)                                            \
	ret name params                                                                            \
	{                                                                                          \
		return p_##name || dl_loaded() ? p_##name args : (fail);                           \
	}
#define PCOST_DL_FORWARD_VOID(name, params, args)                                                  \
	void name params                                                                           \
	{                                                                                          \
		if (p_##name || dl_loaded())                                                       \
			p_##name args;                                                             \
	}
#define PCOST_DL_NAME(ret, name, ...) #name,
#define PCOST_DL_NAME_VOID(name, ...) #name,
#define PCOST_DL_SLOT(ret, name, ...) (void **)&p_##name,
#define PCOST_DL_SLOT_VOID(name, ...) (void **)&p_##name,
#define PCOST_DL_LIBRARY(var, so, pkg, LIST)                                                       \
	LIST(PCOST_DL_POINTER, PCOST_DL_POINTER_VOID)                                              \
	static const char *const var##_names[] = { LIST(PCOST_DL_NAME, PCOST_DL_NAME_VOID) };      \
	static void **const var##_slots[] = { LIST(PCOST_DL_SLOT, PCOST_DL_SLOT_VOID) };           \
	static struct pcost_dynlib var = {                                                         \
		.soname = so,                                                                      \
		.package = pkg,                                                                    \
		.names = var##_names,                                                              \
		.slots = var##_slots,                                                              \
		.n = sizeof(var##_names) / sizeof(var##_names[0]),                                 \
	};                                                                                         \
	static bool dl_loaded(void)                                                                \
	{                                                                                          \
		return pcost_dynlib_load(&var);                                                    \
	}                                                                                          \
	LIST(PCOST_DL_FORWARD, PCOST_DL_FORWARD_VOID)

#endif
