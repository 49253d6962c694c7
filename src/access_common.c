/*
 * access_common.c - helpers shared by every register-access backend.
 */
#include <stdarg.h>
#include <stdio.h>

#include "access.h"

void pmon_access_set_why(struct pmon_access *a, const char *fmt, ...)
{
	va_list ap;

	if (!a)
		return;
	va_start(ap, fmt);
	vsnprintf(a->why, sizeof(a->why), fmt, ap);
	va_end(ap);
}
