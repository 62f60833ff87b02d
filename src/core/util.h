/* SPDX-License-Identifier: MIT */
/*
 * src/core/: what every other folder uses: errors, allocation, number parsing
 * and the clock (util), the undo stack that restores the system on every exit
 * path, Ctrl-C included (cleanup), the result structs that flow from the runner
 * to the store and the reports (result), and the machine fingerprint (env).
 *
 * util: error reporting, allocation, number parsing and the monotonic clock.
 */
#ifndef PCOST_UTIL_H
#define PCOST_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdnoreturn.h>
#include <sys/types.h>

/* Nanoseconds of CLOCK_MONOTONIC (or a difference of two). Never mixed with cycles. */
typedef uint64_t pcost_ns;
/* TSC cycles. */
typedef uint64_t pcost_cycles;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))

/*
 * Exit codes: 0 success, 1 runtime failure, 2 bad usage or bad input, 3
 * measured and printed but not stored (the store could not be written).
 */
enum { PCOST_EXIT_OK = 0, PCOST_EXIT_FAIL = 1, PCOST_EXIT_USAGE = 2, PCOST_EXIT_NOT_STORED = 3 };

/* -q / -v: 0 quiet, 1 normal, 2 verbose. */
extern int pcost_verbosity;
/*
 * The subcommand running (main sets it), NULL before: every message below is
 * prefixed "probecost COMMAND: ", or "probecost: " without one.
 */
extern const char *pcost_command;

/*
 * "probecost COMMAND: error: MSG" on stderr; returns -1 so commands can
 * `return error(...)`.  Lower case, what failed first, subject in quotes,
 * the fix where one is known.
 */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "probecost COMMAND: warning: MSG" on stderr (suppressed by -q). */
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "probecost COMMAND: MSG" when verbose (-v). */
void info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* error() then exit(1).  Only in cmd/ and forked children. */
noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Bad usage or input: prints "probecost COMMAND: MSG" and returns PCOST_EXIT_USAGE (2). */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* s with every occurrence of from (not empty) replaced by to; malloc'd. */
char *pcost_replace_all(const char *s, const char *from, const char *to);
/* Grow *p (of *cap elements of size sz) so that it holds at least want. */
void xgrow(void **p, size_t *cap, size_t want, size_t sz);

/*
 * Parse a whole decimal unsigned integer (k/M/G suffixes allowed: 1k = 1000)
 * within [min, max].  Returns 0, -EINVAL (not a number) or -ERANGE.
 */
int pcost_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
/* Parse a whole floating point number within [min, max]; 0, -EINVAL or -ERANGE. */
int pcost_parse_double(const char *s, double min, double max, double *out);
/*
 * Parse a CPU list "0", "0,2", "0-3" into a bitmask of up to 64 CPUs.
 * Returns 0 or -EINVAL.
 */
int pcost_parse_cpulist(const char *s, uint64_t *mask);
/* The mask back as a list ("0,2,5"), what pcost_parse_cpulist reads. */
void pcost_format_cpumask(uint64_t mask, char *buf, size_t len);
/* A comma list with no empty item ("", ",", "a,,b", "a," are not): strtok_r would skip them. */
bool pcost_list_well_formed(const char *s);
/* Is word one of the items of the comma list (NULL: none)? */
bool pcost_list_has(const char *list, const char *word);
/*
 * Every CPU of mask is one this process may run on (sched_getaffinity: online,
 * in its cpuset); 0, or -EINVAL with why ("CPU 5 is not ... (0,1)").
 */
int pcost_cpus_usable(uint64_t mask, char *why, size_t len);

/* Every character of s is printable UTF-8: valid, shortest form, no C0/C1
 * control or DEL. */
bool pcost_text_printable(const char *s);
/*
 * A copy of s (caller frees) where each byte that starts no printable UTF-8
 * character is written as the four characters \xNN: valid UTF-8 a terminal
 * does not obey, the same for the same bytes.
 */
char *pcost_text_escape(const char *s);
/*
 * The same into o (room for 4 x strlen(s) + 1), each byte of quote (not NUL)
 * also preceded by a backslash; returns the end of what it wrote (at the NUL).
 */
char *pcost_text_escape_to(char *o, const char *s, const char *quote);

/* CLOCK_MONOTONIC now, in ns. */
pcost_ns pcost_now_ns(void);

/* Read a small file whole into buf (NUL-terminated, trailing newline stripped).
 * Returns the length or -errno. */
ssize_t pcost_read_file(const char *path, char *buf, size_t len);

/* Is there an executable named name on $PATH?  Fills path (may be NULL). */
bool pcost_which(const char *name, char *path, size_t len);

/* argv[0] of a command as execvp would find it, into path: 0; or -errno with
 * "could not execute 'NAME': why" in err. */
int pcost_find_exe(const char *name, char *path, size_t len, char *err, size_t errlen);

/* Refuse a command whose argv[0] cannot be executed, before anything runs: its
 * usage_error ("WHAT: could not execute ...", WHAT may be NULL) and PCOST_EXIT_USAGE;
 * else 0. */
int pcost_refuse_unexecutable(const char *what, const char *name);

/*
 * Remove path and everything below it (a file: unlink it), never following a
 * link; only when path is owned by owner ((uid_t)-1: whoever owns it).
 * Async-signal-safe.  true when path is gone.
 */
bool pcost_remove_tree(const char *path, uid_t owner);

/* Pin the calling thread to the CPUs in mask; 0 or -errno. */
int pcost_pin_mask(uint64_t mask);

#endif
