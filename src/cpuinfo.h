/* cpuinfo.h - identify the CPU from /proc/cpuinfo (path overridable). */
#ifndef PMON_CPUINFO_H
#define PMON_CPUINFO_H
#include "access.h"
/* Fills id from the first processor entry; 0, or PMON_ENODEV/PMON_EIO. */
int pmon_cpuinfo_read(const char *path, struct pmon_cpuid *id);
#endif
