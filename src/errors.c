/* errors.c - short texts for libpmon's error codes. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pmon/pmon.h"
#include "why.h"

const char *pmon_strerror(int err)
{
	switch (err) {
	case PMON_OK: return "success";
	case PMON_ENOEVNT: return "unknown PMU, box instance or event";
	case PMON_EUMASK: return "unknown umask, or umask not valid for the event";
	case PMON_EQUAL: return "unknown or malformed modifier";
	case PMON_ERANGE: return "value out of range";
	case PMON_ECONFLICT: return "events cannot be counted together";
	case PMON_EPERM: return "no permission";
	case PMON_ENODEV: return "device or register missing";
	case PMON_ENOTMODELED: return "event not modeled by the emulated machine";
	case PMON_ENOMEM: return "out of memory";
	case PMON_EIO: return "register access failed";
	case PMON_EINVAL: return "invalid argument or state";
	case PMON_ENOSUPP: return "not supported on this machine";
	case PMON_EBUSY: return "registers in use by another agent";
	case PMON_ESTALE: return "a counter may have wrapped unseen (no fold in time)";
	default: return "unknown error";
	}
}

int pmon_why(char *buf, size_t len, int code, const char *fmt, ...)
{
	if (buf && len) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(buf, len, fmt, ap);
		va_end(ap);
	}
	return code;
}

void pmon_why_add(char *buf, size_t len, const char *sep, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (!buf || !len)
		return;
	size_t n = strnlen(buf, len);
	if (n && n + strlen(sep) + 1 < len)
		n += (size_t)snprintf(buf + n, len - n, "%s", sep);
	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	k = vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
	if (k > 0 && (size_t)k >= len - n && len >= 4)
		memcpy(buf + len - 4, "...", 4);
}
