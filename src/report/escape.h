/* SPDX-License-Identifier: MIT */
/* escape: text made safe for the pages and pictures report writes (HTML, SVG). */
#ifndef PCOST_ESCAPE_H
#define PCOST_ESCAPE_H

#include <stdio.h>

/* Write s with &, <, >, " and ' as character references (text and attribute values). */
void pcost_xml_escape(FILE *out, const char *s);

#endif
