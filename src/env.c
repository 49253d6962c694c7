/* env.c - settings from the environment (env.h). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "env.h"
#include "pmon/pmon.h"
#include "why.h"

extern char **environ;

const char *pmon_env_or(const char *name, const char *def)
{
	const char *v = getenv(name);
	return v && *v ? v : def;
}

int pmon_env_elevated(void)
{
	return getauxval(AT_SECURE) != 0 || (geteuid() == 0 && getuid() != 0) ||
	       getegid() != getgid();
}

const char *pmon_env_path(const char *name, const char *def)
{
	return pmon_env_elevated() ? def : pmon_env_or(name, def);
}

int pmon_env_hostile(char *why, size_t whylen)
{
	static const struct { const char *name; int prefix; const char *what; } vars[] = {
		{ "HWLOC_", 1, "hwloc would take it from the environment (HWLOC_* variables redirect "
		  "the files hwloc reads and load plugins)" },
		{ "PAPI_CSV_EVENT_FILE", 0, "PAPI would read event definitions from that file" },
		{ "PAPI_USER_EVENTS_FILE", 0, "PAPI would read event definitions from that file" },
		{ "PAPI_OUTPUT_DIRECTORY", 0, "PAPI's high-level API would write its reports there" },
		{ "LIBPFM_FORCE_PMU", 0, "libpfm would take another PMU for this machine's" },
		{ "LIBPFM_DEBUG_STDOUT", 0, "libpfm would print its debug output" },
	};
	if (!pmon_env_elevated())
		return PMON_OK;
	for (char **e = environ; e && *e; e++) {
		size_t n = strcspn(*e, "=");
		for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
			size_t l = strlen(vars[i].name);
			if (vars[i].prefix ? strncmp(*e, vars[i].name, l) : (n != l || strncmp(*e, vars[i].name, l)))
				continue;
			return pmon_why(why, whylen, PMON_EPERM, "%.*s is set, and pmon runs with privileges "
					"its real user has not (set-user-ID, set-group-ID, file "
					"capabilities, or effective uid 0 with a real uid that is not): %s, "
					"so pmon refuses to start; unset it", (int)(n < 64 ? n : 64), *e,
					vars[i].what);
		}
	}
	return PMON_OK;
}
