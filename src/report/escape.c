// SPDX-License-Identifier: MIT
/* report/escape: XML character references for HTML pages and SVG pictures (see escape.h). */
#include "report/escape.h"

void pcost_xml_escape(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '&')
			fputs("&amp;", out);
		else if (c == '<')
			fputs("&lt;", out);
		else if (c == '>')
			fputs("&gt;", out);
		else if (c == '"')
			fputs("&quot;", out);
		else if (c == '\'')
			fputs("&#39;", out);
		else if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
			fputs("&#xFFFD;", out); /* control characters have no place in a page */
		else
			fputc(c, out);
	}
}
