/* tool_out.c - output helpers of the pmon program: JSON documents, hex
 * values, PATTERN matching, counter lists. */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* Print a JSON document on stdout and free it; 1 if it could not be built. */
int emit_json(json_t *doc)
{
	if (!doc) {
		fprintf(stderr, "pmon: out of memory building the JSON output\n");
		return 1;
	}
	int rc = json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(doc);
	if (rc == 0)
		putchar('\n');
	return rc ? 1 : 0;
}

json_t *hex(uint64_t v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)v);
	return json_string(buf);
}

int matches(const char *pattern, const char *name)
{
	char glob[512];
	if (!pattern)
		return 1;
	if (strpbrk(pattern, "*?["))
		snprintf(glob, sizeof(glob), "%s", pattern);
	else
		snprintf(glob, sizeof(glob), "*%s*", pattern);
	return fnmatch(glob, name, FNM_CASEFOLD) == 0;
}

void counters_text(uint32_t mask, int fixed, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	if (fixed) {
		snprintf(buf, len, "fixed");
		return;
	}
	for (int c = 0; c < 32 && n < len;) {
		if (!(mask & (1u << c))) {
			c++;
			continue;
		}
		int e = c;
		while (e + 1 < 32 && (mask & (1u << (e + 1))))
			e++;
		n += (size_t)snprintf(buf + n, len - n, "%s%d", n ? "," : "", c);
		if (e > c)
			n += (size_t)snprintf(buf + n, len - n, "-%d", e);
		c = e + 1;
	}
}

/* The general counters as a JSON array of numbers (empty for an event of
 * the fixed counter, which "fixed_counter" says). */
json_t *counters_json(uint32_t mask, int fixed)
{
	json_t *a = json_array();
	for (int c = 0; c < 32 && !fixed; c++)
		if (mask & (1u << c))
			json_array_append_new(a, json_integer(c));
	return a;
}
