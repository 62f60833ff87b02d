// SPDX-License-Identifier: MIT
/* fuzz_import: libFuzzer target for the importer (bytes -> validated sessions). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "store/store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pcost_session *ss;
	char err[512];
	size_t n;

	if (pcost_sessions_from_text((const char *)data, size, &ss, &n, err, sizeof(err)))
		return 0;
	/* What was accepted must export again and re-import identically sized. */
	for (size_t i = 0; i < n; i++) {
		struct cJSON *j = pcost_session_to_json(&ss[i]);
		struct pcost_session again;

		if (pcost_session_from_json(j, &again, err, sizeof(err)) ||
		    again.nconfigs != ss[i].nconfigs || again.nseries != ss[i].nseries)
			abort();
		pcost_session_release(&again);
		cJSON_Delete(j);
		pcost_session_release(&ss[i]);
	}
	free(ss);
	return 0;
}
