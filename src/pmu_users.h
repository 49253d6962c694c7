/*
 * pmu_users.h - other users of the PMU that pmon can see from outside.
 *
 * On the hardware, before counting: the NMI watchdog (it holds a core
 * counter through perf: /proc/sys/kernel/nmi_watchdog, as PAPI's
 * perf_event component reads it), the kernel's uncore perf PMUs
 * (/sys/bus/event_source/devices/uncore_*), and the driver bound to each
 * uncore PCI function pmon found (DEVICE/driver in the PCI sysfs tree).
 * Paths for tests: PMON_NMI_WATCHDOG (the file), PMON_EVENT_SOURCE (the
 * devices directory), PMON_PCI_SYSFS (the PCI tree, as for the backend).
 * The result is one text, added to the machine's warnings (pmon info,
 * the PAPI component's stderr) and to busy refusals.
 */
#ifndef PMON_PMU_USERS_H
#define PMON_PMU_USERS_H

#include <stddef.h>

struct pmon_machine;

/* Describe the other PMU users found into buf ("" when none). */
void pmon_pmu_users(const struct pmon_machine *m, char *buf, size_t len);

#endif
