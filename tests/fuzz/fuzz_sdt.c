// SPDX-License-Identifier: MIT
/* fuzz_sdt: libFuzzer target for the SDT note reader (make fuzz-sdt; see mk/probes.mk). */
#include <stddef.h>
#include <stdint.h>

#include "probes/sdt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pcost_sdt_list l;

	pcost_sdt_read_mem(data, size, &l);
	/* Whatever came back must be whole strings (ASan checks the reads). */
	for (size_t i = 0; i < l.n; i++) {
		volatile size_t n = 0;

		for (const char *p = l.probes[i].provider; *p; p++)
			n++;
		for (const char *p = l.probes[i].args; *p; p++)
			n++;
	}
	pcost_sdt_list_release(&l);
	return 0;
}
