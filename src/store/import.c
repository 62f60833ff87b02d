// SPDX-License-Identifier: MIT
/* import: bytes of an export -> validated sessions, all or nothing (fuzzed: tests/fuzz). */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"
#include "core/util.h"

/*
 * A \u0000 escape would end the C string cJSON makes of it, and cut what
 * follows silently: refuse it.  Backslashes occur only in strings in valid
 * JSON, and each starts an escape: skip the escaped character.
 */
static int nul_escape(const char *buf, size_t len, char *err, size_t errlen)
{
	for (size_t i = 0; i + 1 < len; i++) {
		if (buf[i] != '\\')
			continue;
		if (i + 5 < len && buf[i + 1] == 'u' && !memcmp(buf + i + 2, "0000", 4)) {
			snprintf(err, errlen,
				 "a NUL character (\\u0000) in a string at byte %zu; "
				 "strings cannot hold one",
				 i);
			return -EINVAL;
		}
		i++;
	}
	return 0;
}

int pcost_sessions_from_text(const char *buf, size_t len, struct pcost_session **out, size_t *n,
			     char *err, size_t errlen)
{
	struct pcost_session *ss = NULL;
	const char *end = NULL;
	size_t count = 0, i = 0;
	const cJSON *e;
	char msg[256];
	cJSON *j;
	int rc = 0;

	*out = NULL;
	*n = 0;
	if (len > PCOST_IMPORT_MAX_BYTES) {
		snprintf(err, errlen, "larger than %u MiB", PCOST_IMPORT_MAX_BYTES >> 20);
		return -EFBIG;
	}
	if (memchr(buf, '\0', len)) {
		snprintf(err, errlen, "contains a NUL byte; not a JSON text");
		return -EINVAL;
	}
	if ((rc = nul_escape(buf, len, err, errlen)))
		return rc;
	/* cJSON stops at 1000 levels of nesting (CJSON_NESTING_LIMIT), so no stack blow-up. */
	j = cJSON_ParseWithLengthOpts(buf, len, &end, false);
	if (!j) {
		snprintf(err, errlen, "not valid JSON near byte %zu",
			 end ? (size_t)(end - buf)
			     : (size_t)(cJSON_GetErrorPtr() ? cJSON_GetErrorPtr() - buf : 0));
		return -EINVAL;
	}
	for (; end && end < buf + len; end++)
		if (!strchr(" \t\r\n", *end)) {
			snprintf(err, errlen, "trailing data after the JSON value at byte %zu",
				 (size_t)(end - buf));
			cJSON_Delete(j);
			return -EINVAL;
		}
	if (cJSON_IsArray(j)) {
		int sz = cJSON_GetArraySize(j);

		if (sz <= 0 || sz > PCOST_IMPORT_MAX_SESSIONS) {
			snprintf(err, errlen, "an array of 1 to %d sessions expected, got %d",
				 PCOST_IMPORT_MAX_SESSIONS, sz);
			cJSON_Delete(j);
			return -EINVAL;
		}
		count = (size_t)sz;
	} else {
		count = 1;
	}
	ss = xcalloc(count, sizeof(*ss));
	if (cJSON_IsArray(j)) {
		cJSON_ArrayForEach(e, j)
		{
			if ((rc = pcost_session_from_json(e, &ss[i], msg, sizeof(msg)))) {
				snprintf(err, errlen, "session %zu: %s", i, msg);
				break;
			}
			i++;
		}
	} else if ((rc = pcost_session_from_json(j, &ss[0], msg, sizeof(msg)))) {
		snprintf(err, errlen, "%s", msg);
	} else {
		i = 1;
	}
	cJSON_Delete(j);
	if (rc) {
		for (size_t k = 0; k < i; k++)
			pcost_session_release(&ss[k]);
		free(ss);
		return rc;
	}
	*out = ss;
	*n = count;
	return 0;
}
