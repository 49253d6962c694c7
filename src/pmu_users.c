/* pmu_users.c - other users of the PMU (see pmu_users.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env.h"
#include "machine.h"
#include "pmu_users.h"
#include "why.h"

void pmon_pmu_users(const struct pmon_machine *m, char *buf, size_t len)
{
	char path[PATH_MAX], link[PATH_MAX], list[512] = "";
	buf[0] = 0;
	FILE *f = fopen(pmon_env_path("PMON_NMI_WATCHDOG", "/proc/sys/kernel/nmi_watchdog"), "r");
	int wd = 0;
	if (f) {
		if (fscanf(f, "%d", &wd) != 1)
			wd = 0;
		fclose(f);
	}
	if (wd)
		pmon_why_add(buf, len, "\n", "the NMI watchdog is on: it holds one core counter of "
			     "every CPU through perf (echo 0 > /proc/sys/kernel/nmi_watchdog frees it)");

	DIR *d = opendir(pmon_env_path("PMON_EVENT_SOURCE", "/sys/bus/event_source/devices"));
	int n = 0;
	for (struct dirent *e; d && (e = readdir(d));)
		if (!strncmp(e->d_name, "uncore_", 7) && n++ < 8)
			pmon_why_add(list, sizeof(list), n > 1 ? ", " : "", "%s", e->d_name);
	if (d)
		closedir(d);
	if (n)
		pmon_why_add(buf, len, "\n", "the kernel's uncore perf driver is loaded (%d PMUs: %s%s): "
			     "a perf user of them reprograms the same boxes", n, list, n > 8 ? ", ..." : "");

	/* the driver bound to each uncore PCI function pmon uses */
	const char *sysfs = pmon_env_path("PMON_PCI_SYSFS", "/sys/bus/pci");
	int npmus;
	const struct pmon_pmu *pmus = pmon_catalog(&npmus);
	list[0] = 0;
	n = 0;
	for (int p = 0; p < npmus && p < PMON_MAX_PMUS; p++)
		for (int s = 0; s < m->topo.nsockets && s < PMON_MAX_SOCKETS; s++) {
			const struct pmon_box_loc *l = &m->loc[p][s];
			if (!l->present || pmus[p].type->space != PMON_SPACE_PCI)
				continue;
			snprintf(path, sizeof(path), "%s/devices/%04x:%02x:%02x.%x/driver", sysfs,
				 l->pci.domain, l->pci.bus, l->pci.dev, l->pci.func);
			ssize_t k = readlink(path, link, sizeof(link) - 1);
			if (k <= 0)
				continue;
			link[k] = 0;
			const char *drv = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
			if (n++ < 4)
				pmon_why_add(list, sizeof(list), n > 1 ? ", " : "", "%s on socket %d (%02x:%02x.%x)",
					     drv, s, l->pci.bus, l->pci.dev, l->pci.func);
		}
	if (n)
		pmon_why_add(buf, len, "\n", "%d uncore PCI function(s) have a kernel driver bound: %s%s; "
			     "that driver may program them too", n, list, n > 4 ? ", ..." : "");
}
