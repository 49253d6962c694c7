/* machine.h - the opened machine: backend, topology, where each box lives. */
#ifndef PMON_MACHINE_H
#define PMON_MACHINE_H

#include "pmon/pmon.h"
#include "access.h"
#include "boxlock.h"
#include "busmap.h"
#include "fold.h"
#include "generation.h"
#include "catalog.h"
#include "registry.h"
#include "topology.h"

#define PMON_MAX_PMUS 64

struct pmon_box_loc {
	int present;
	int has_extra;            /* PCI: the extra (match/mask) function exists */
	pmon_pci_addr_t pci;
	pmon_pci_addr_t extra;
};

struct pmon_machine {
	char backend[8];
	char cpu_name[96];
	struct pmon_cpuid id;
	const struct pmon_generation *gen;  /* its uncore generation (generation.h) */
	struct pmon_access *acc;
	struct pmon_topo topo;
	struct pmon_busmap bm;
	int emulated;             /* the backend is the emulated machine (sim) */
	struct pmon_box_loc loc[PMON_MAX_PMUS][PMON_MAX_SOCKETS];
	char warnings[1024];
	/* every live session: closing the machine stops and restores them;
	 * running ones are checked against each other */
	struct pmon_registry sessions;
	/* exclusion between processes (boxlock.h): the run directory, and the
	 * box locks this machine handle holds */
	char run_dir[PATH_MAX];
	struct pmon_boxlocks locks;
	/* other users of the PMU found at open (pmu_users.h), "" if none */
	char pmu_users[768];
	/* the fold thread / tick of running sessions (fold.h) */
	struct pmon_fold fold;
	int fold_ready;
};

/* Fold every running session of m (the fold thread's and tick's job). */
void pmon_sessions_fold(void *m);

#endif
