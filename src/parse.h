/* parse.h - a whole unsigned number as event names write one: decimal,
 * 0x hex or 0 octal, nothing after it, no sign. */
#ifndef PMON_PARSE_H
#define PMON_PARSE_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

/* 0 and *v set, or -1 (v untouched). */
static inline int pmon_parse_u64(const char *s, uint64_t *v)
{
	char *end;
	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 0);
	if (errno || *end)
		return -1;
	*v = x;
	return 0;
}

#endif
