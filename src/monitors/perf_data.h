/* SPDX-License-Identifier: MIT */
/*
 * perf_data: what a perf record output file holds, read from the file itself
 * rather than from perf's words on stderr (which the wrapped form shares with
 * the workload, and -q silences).
 */
#ifndef PCOST_PERF_DATA_H
#define PCOST_PERF_DATA_H

#include <stdint.h>

/*
 * The samples (PERF_RECORD_SAMPLE records) of the perf.data file at path: the
 * N of perf's "[ perf record: Captured and wrote X MB FILE (N samples) ]".
 * -1 when the file cannot be read, is not a perf.data file of this byte order,
 * was never finished (perf writes the data section's size last, at exit), or
 * holds records whose samples cannot be counted without decoding them (perf
 * record -z's compressed ones, AUX area data).
 */
int64_t pcost_perf_data_samples(const char *path);

#endif
