/* SPDX-License-Identifier: MIT */
/*
 * session_json: a session <-> JSON, raw samples included, so a session
 * exported on one machine imports into another's store unchanged.
 * `run --format json` embeds it.
 */
#ifndef PCOST_SESSION_JSON_H
#define PCOST_SESSION_JSON_H

#include <stddef.h>

#include "core/result.h"

struct cJSON;

/* Everything in s (env fingerprint parsed back into an object); caller owns. */
struct cJSON *pcost_session_to_json(const struct pcost_session *s);

/*
 * Validate and load j into *s (initialized by the callee).  Rejects anything
 * malformed, out of range or hostile with one line in err; *s is released on
 * failure.  Returns 0 or -EINVAL.
 */
int pcost_session_from_json(const struct cJSON *j, struct pcost_session *s, char *err,
			    size_t errlen);

#endif
