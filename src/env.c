/* env.c - settings from the environment (env.h). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "env.h"

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
