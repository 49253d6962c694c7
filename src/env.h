/* env.h - settings from the environment. */
#ifndef PMON_ENV_H
#define PMON_ENV_H

/* The value of environment variable name, or def when it is unset or empty. */
const char *pmon_env_or(const char *name, const char *def);

/* The same for a variable that redirects pmon to other files or devices
 * (PMON_RUN_DIR, PMON_MSR_ROOT, PMON_PCI_SYSFS, PMON_CPUINFO,
 * PMON_TOPOLOGY, PMON_NMI_WATCHDOG, PMON_EVENT_SOURCE): def, whatever the
 * environment says, when the process runs with privileges its real user
 * has not (pmon_env_elevated). */
const char *pmon_env_path(const char *name, const char *def);

/* Does the process run with privileges its real user has not: set-user-ID
 * or set-group-ID, file capabilities (the kernel's AT_SECURE, as
 * secure_getenv(3) sees it), or an effective uid 0 with a real uid that
 * is not 0? */
int pmon_env_elevated(void);

#endif
