/* env.c - settings from the environment (env.h). */
#include <stdlib.h>

#include "env.h"

const char *pmon_env_or(const char *name, const char *def)
{
	const char *v = getenv(name);
	return v && *v ? v : def;
}
