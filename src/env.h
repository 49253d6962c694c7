/* env.h - settings from the environment. */
#ifndef PMON_ENV_H
#define PMON_ENV_H

#include <stddef.h>

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

/* With privileges its real user has not (pmon_env_elevated), a variable
 * of the environment that a library pmon runs with reads itself, with
 * getenv, to read or write other files or to load code: PMON_EPERM with
 * why naming it and what reads it, else PMON_OK.  They cannot be made
 * ignored, so a machine does not open while one is set:
 *  - hwloc: every HWLOC_* (HWLOC_PLUGINS_PATH loads plugins, HWLOC_FSROOT,
 *    HWLOC_XMLFILE, HWLOC_CPUID_PATH, HWLOC_SYNTHETIC replace the machine);
 *  - PAPI, which loads the pmon component: PAPI_CSV_EVENT_FILE and
 *    PAPI_USER_EVENTS_FILE (event definitions read from a file, whose lines
 *    PAPI's errors may print), PAPI_OUTPUT_DIRECTORY (where the high-level
 *    API writes its reports);
 *  - libpfm (linked into PAPI): LIBPFM_FORCE_PMU, LIBPFM_DEBUG_STDOUT.
 * libpci reads no variable (pmon sets its access method and sysfs path
 * itself; libudev, which libpci links, is used only for device names,
 * which pmon never looks up). */
int pmon_env_hostile(char *why, size_t whylen);

#endif
