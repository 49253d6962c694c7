/*
 * busmap.h - which socket each uncore PCI bus belongs to.
 *
 * Built the way the Linux kernel does for SNB-EP: for every UBox function
 * (8086:3ce0) read CPUNODEID (config 0x40, local node ID in bits 2:0) and
 * GIDNIDMAP (config 0x54, eight 3-bit node IDs); the socket is the index of
 * the GIDNIDMAP field equal to the local node ID.  Buses without a UBox take
 * the mapping of the next higher bus that has one.  The result is compared
 * with hwloc's placement of the same functions; every disagreement is written
 * to warn (and is not silently resolved).
 */
#ifndef PMON_BUSMAP_H
#define PMON_BUSMAP_H

#include <stddef.h>
#include "access.h"
#include "topology.h"

#define PMON_UBOX_DEVID     0x3ce0
#define PMON_UBOX_CPUNODEID 0x40
#define PMON_UBOX_GIDNIDMAP 0x54
#define PMON_MAX_SOCKETS    8

struct pmon_busmap {
	int nsockets;                       /* sockets that have a UBox */
	uint16_t domain;
	int bus_socket[256];                /* -1: unknown */
	int socket_bus[PMON_MAX_SOCKETS];   /* the UBox bus of each socket, -1 none */
	int socket_node[PMON_MAX_SOCKETS];  /* each socket's node ID (its UBox's CPUNODEID
					       bits 2:0, what the CBo's node filter
					       and QPI packets name), -1 none */
	char warn[512];                     /* disagreements with hwloc, "" if none */
};

/* t may be NULL (no cross-check).  Fails with PMON_ENODEV when no UBox is found. */
int pmon_busmap_build(struct pmon_access *a, const struct pmon_topo *t,
		      struct pmon_busmap *bm, char *why, size_t whylen);
int pmon_busmap_socket(const struct pmon_busmap *bm, pmon_pci_addr_t d);

#endif
