/* env.h - settings from the environment. */
#ifndef PMON_ENV_H
#define PMON_ENV_H

/* The value of environment variable name, or def when it is unset or empty. */
const char *pmon_env_or(const char *name, const char *def);

#endif
