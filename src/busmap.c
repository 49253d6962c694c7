/*
 * busmap.c - PCI bus to socket map of the SNB-EP uncore, from the UBox
 * node-ID registers (the Linux kernel's method), cross-checked with hwloc.
 */
#define _GNU_SOURCE

#include <stdio.h>
#include <string.h>

#include "pmon/pmon.h"
#include "busmap.h"
#include "regs.h"
#include "why.h"

#define INTEL_VENDOR 0x8086
#define MAX_UBOX     256

/* Append one message to bm->warn, "; "-separated, truncating safely. */
static void bm_init(struct pmon_busmap *bm)
{
	memset(bm, 0, sizeof(*bm));
	for (int b = 0; b < 256; b++)
		bm->bus_socket[b] = -1;
	for (int s = 0; s < PMON_MAX_SOCKETS; s++)
		bm->socket_bus[s] = bm->socket_node[s] = -1;
}

/* The GIDNIDMAP field holding this node ID, or -1. */
static int gidnid_index(uint32_t gidnidmap, unsigned node)
{
	for (int i = 0; i < PMON_MAX_SOCKETS; i++)
		if (((gidnidmap >> (3 * i)) & 7) == node)
			return i;
	return -1;
}

struct ubox_regs {
	uint32_t cpunodeid, gidnidmap;
	int socket;
};

static int read_ubox(struct pmon_access *a, pmon_pci_addr_t d, struct ubox_regs *r,
		     char *why, size_t whylen)
{
	char reason[PMON_WHY_LEN];
	int rc = pmon_reg_read_config(a, d, PMON_UBOX_CPUNODEID, &r->cpunodeid, reason, sizeof reason);

	if (rc == 0)
		rc = pmon_reg_read_config(a, d, PMON_UBOX_GIDNIDMAP, &r->gidnidmap, reason, sizeof reason);
	if (rc != 0) {
		pmon_why(why, whylen, 0,
			 "cannot read the node-ID registers of UBox %04x:%02x:%02x.%x: %s",
		       d.domain, d.bus, d.dev, d.func, reason);
		return rc;
	}
	r->socket = gidnid_index(r->gidnidmap, r->cpunodeid & 7);
	return 0;
}

/* Compare the register answer with hwloc's placement of the UBox. */
static void cross_check(struct pmon_busmap *bm, const struct pmon_topo *t, pmon_pci_addr_t d,
			const struct ubox_regs *r)
{
	int hs = pmon_topo_pci_socket(t, d);

	if (hs < 0 || hs == r->socket)
		return;
	pmon_why_add(bm->warn, sizeof(bm->warn), "; ",
		     "bus 0x%02x: UBox node-ID registers say socket %d (CPUNODEID 0x%x,"
		" GIDNIDMAP 0x%06x), hwloc says socket %d",
		d.bus, r->socket, r->cpunodeid, r->gidnidmap, hs);
}

int pmon_busmap_build(struct pmon_access *a, const struct pmon_topo *t,
		      struct pmon_busmap *bm, char *why, size_t whylen)
{
	pmon_pci_addr_t ubox[MAX_UBOX];
	int n, cur;

	if (!a || !bm)
		return PMON_EINVAL;
	bm_init(bm);
	char reason[PMON_WHY_LEN];
	n = a->ops->pci_find(a, INTEL_VENDOR, PMON_UBOX_DEVID, ubox, MAX_UBOX, reason, sizeof reason);
	if (n < 0) {
		pmon_why(why, whylen, 0, "cannot look for the UBox PCI functions: %s", reason);
		return n;
	}
	if (n == 0) {
		pmon_why(why, whylen, 0,
			 "no UBox PCI function (8086:%04x) found: not a Xeon E5-2600"
		       " (Sandy Bridge-EP), or the uncore PCI devices are hidden", PMON_UBOX_DEVID);
		return PMON_ENODEV;
	}
	if (n > MAX_UBOX)
		n = MAX_UBOX;
	bm->domain = ubox[0].domain;

	for (int i = 0; i < n; i++) {
		pmon_pci_addr_t d = ubox[i];
		struct ubox_regs r;
		int rc;

		if (d.domain != bm->domain) {
			pmon_why_add(bm->warn, sizeof(bm->warn), "; ",
				     "UBox %04x:%02x:%02x.%x ignored: only PCI domain %04x is mapped",
				d.domain, d.bus, d.dev, d.func, bm->domain);
			continue;
		}
		rc = read_ubox(a, d, &r, why, whylen);
		if (rc != 0)
			return rc;
		if (r.socket < 0) {
			pmon_why_add(bm->warn, sizeof(bm->warn), "; ",
				     "bus 0x%02x: local node ID %u (CPUNODEID 0x%x) is not in"
				" GIDNIDMAP 0x%06x; bus left unmapped",
				d.bus, r.cpunodeid & 7, r.cpunodeid, r.gidnidmap);
			continue;
		}
		if (bm->socket_bus[r.socket] >= 0) {
			pmon_why_add(bm->warn, sizeof(bm->warn), "; ",
				     "bus 0x%02x: node-ID registers say socket %d, already given to"
				" bus 0x%02x; bus left unmapped",
				d.bus, r.socket, bm->socket_bus[r.socket]);
			continue;
		}
		bm->bus_socket[d.bus] = r.socket;
		bm->socket_node[r.socket] = (int)(r.cpunodeid & 7);
		bm->socket_bus[r.socket] = d.bus;
		bm->nsockets++;
		if (t)
			cross_check(bm, t, d, &r);
	}
	if (bm->nsockets == 0) {
		pmon_why(why, whylen, 0, "no UBox gave a usable socket number: %s", bm->warn);
		return PMON_ENODEV;
	}

	/* A bus without a UBox belongs to the next higher bus that has one. */
	cur = -1;
	for (int b = 255; b >= 0; b--) {
		if (bm->bus_socket[b] >= 0)
			cur = bm->bus_socket[b];
		else
			bm->bus_socket[b] = cur;
	}
	return PMON_OK;
}

int pmon_busmap_socket(const struct pmon_busmap *bm, pmon_pci_addr_t d)
{
	if (!bm || d.domain != bm->domain)
		return -1;
	return bm->bus_socket[d.bus];
}
