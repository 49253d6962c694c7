/*
 * topology.h - sockets, cores and CPUs, learnt through hwloc.
 *
 * source selects what hwloc looks at:
 *   NULL                 this machine (I/O objects kept, for the PCI cross-check)
 *   "synthetic:DESC"     an hwloc synthetic description, e.g. "package:2 core:8 pu:2"
 *                        (the emulated machine's shape)
 *   "xml:PATH"           an hwloc XML export (tests: topologies with PCI devices)
 * Logical CPU numbers are the PUs' OS indexes.
 */
#ifndef PMON_TOPOLOGY_H
#define PMON_TOPOLOGY_H

#include <stddef.h>
#include "access.h"

struct pmon_topo {
	int nsockets;
	int ncpus;                 /* highest PU os_index + 1 */
	int cores_per_socket;      /* of socket 0 */
	int threads_per_core;
	int *cpu_socket;           /* [ncpus], logical package index or -1 if absent */
	int *cpu_core;             /* [ncpus], core index within its package or -1 */
	int *socket_first_cpu;     /* [nsockets] */
	void *hw;                  /* hwloc_topology_t, kept for PCI look-ups */
};

int pmon_topo_load(struct pmon_topo *t, const char *source, char *why, size_t whylen);
void pmon_topo_free(struct pmon_topo *t);

/* Package (logical index) hwloc places this PCI function under: >= 0, or -1
 * when hwloc has no PCI information or does not know the function. */
int pmon_topo_pci_socket(const struct pmon_topo *t, pmon_pci_addr_t d);

#endif
