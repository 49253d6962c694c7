/*
 * topology.c - sockets, cores and CPUs through hwloc 2.x.
 *
 * A socket is an hwloc Package, numbered by its logical index.  A topology
 * without Package objects (a synthetic "core:2 pu:1", some VMs) is one socket
 * holding every PU.  Without Core objects every PU counts as its own core.
 */
#define _GNU_SOURCE

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>
#include <unistd.h>

#include "pmon/pmon.h"
#include "env.h"
#include "topology.h"
#include "why.h"

/* PUs with a larger OS index (or none) are left out. */
#define TOPO_MAX_CPUS 65536

static int pu_usable(hwloc_obj_t pu)
{
	return pu->os_index < TOPO_MAX_CPUS;
}

/* Point hwloc at the source; 0 or a PMON_E* code. */
static int topo_source(hwloc_topology_t h, const char *source, char *why, size_t whylen)
{
	/* PCI objects are kept for every source: XML files may carry them. */
	hwloc_topology_set_io_types_filter(h, HWLOC_TYPE_FILTER_KEEP_ALL);
	if (!source) {
		/* hwloc's Linux backend finds the PCI functions in sysfs by
		 * itself; its libpciaccess-based "pci" component would only add
		 * device names, and leaks its name table. */
		hwloc_topology_set_components(h, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "pci");
		return 0;
	}
	if (!strncmp(source, "synthetic:", 10)) {
		if (hwloc_topology_set_synthetic(h, source + 10) != 0) {
			pmon_why(why, whylen, 0, "bad hwloc synthetic description \"%s\"", source + 10);
			return PMON_EINVAL;
		}
		return 0;
	}
	if (!strncmp(source, "xml:", 4)) {
		if (hwloc_topology_set_xml(h, source + 4) != 0) {
			pmon_why(why, whylen, 0, "hwloc cannot read the XML topology %s", source + 4);
			return PMON_EINVAL;
		}
		return 0;
	}
	pmon_why(why, whylen, 0, "unknown topology source \"%s\" (expected synthetic:DESC or xml:PATH)",
		 source);
	return PMON_EINVAL;
}

static int pu_socket(hwloc_topology_t h, hwloc_obj_t pu)
{
	hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(h, HWLOC_OBJ_PACKAGE, pu);

	return pkg ? (int)pkg->logical_index : 0;
}

/* Number the cores of each socket 0..n-1 in logical order and fill cpu_core. */
static void topo_cores(struct pmon_topo *t, hwloc_topology_t h)
{
	int ncores = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_CORE);
	int *next = calloc((size_t)t->nsockets, sizeof(int));

	if (!next)
		return;
	if (ncores > 0) {
		for (int i = 0; i < ncores; i++) {
			hwloc_obj_t core = hwloc_get_obj_by_type(h, HWLOC_OBJ_CORE, i);
			hwloc_obj_t pu = NULL;
			int s, idx;

			pu = hwloc_get_next_obj_inside_cpuset_by_type(h, core->cpuset, HWLOC_OBJ_PU, NULL);
			if (!pu)
				continue;
			s = pu_socket(h, pu);
			idx = next[s]++;
			while (pu) {
				if (pu_usable(pu) && (int)pu->os_index < t->ncpus)
					t->cpu_core[pu->os_index] = idx;
				pu = hwloc_get_next_obj_inside_cpuset_by_type(h, core->cpuset,
									    HWLOC_OBJ_PU, pu);
			}
		}
	} else {
		for (int c = 0; c < t->ncpus; c++)
			if (t->cpu_socket[c] >= 0)
				t->cpu_core[c] = next[t->cpu_socket[c]]++;
	}
	t->cores_per_socket = next[0];
	free(next);
}

static int topo_threads_per_core(hwloc_topology_t h)
{
	hwloc_obj_t core = hwloc_get_obj_by_type(h, HWLOC_OBJ_CORE, 0);
	int n;

	if (!core)
		return 1;
	n = hwloc_get_nbobjs_inside_cpuset_by_type(h, core->cpuset, HWLOC_OBJ_PU);
	return n > 0 ? n : 1;
}

static int topo_fill(struct pmon_topo *t, hwloc_topology_t h, char *why, size_t whylen)
{
	int npu = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_PU);
	int npkg = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_PACKAGE);
	int maxos = -1;

	for (int i = 0; i < npu; i++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(h, HWLOC_OBJ_PU, i);

		if (pu_usable(pu) && (int)pu->os_index > maxos)
			maxos = (int)pu->os_index;
	}
	if (maxos < 0) {
		pmon_why(why, whylen, 0, "hwloc found no processing units");
		return PMON_ENODEV;
	}
	t->ncpus = maxos + 1;
	t->nsockets = npkg > 0 ? npkg : 1;
	t->cpu_socket = malloc(sizeof(int) * (size_t)t->ncpus);
	t->cpu_core = malloc(sizeof(int) * (size_t)t->ncpus);
	t->socket_first_cpu = malloc(sizeof(int) * (size_t)t->nsockets);
	if (!t->cpu_socket || !t->cpu_core || !t->socket_first_cpu) {
		pmon_why(why, whylen, 0, "out of memory building the topology");
		return PMON_ENOMEM;
	}
	for (int c = 0; c < t->ncpus; c++)
		t->cpu_socket[c] = t->cpu_core[c] = -1;
	for (int s = 0; s < t->nsockets; s++)
		t->socket_first_cpu[s] = -1;
	for (int i = 0; i < npu; i++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(h, HWLOC_OBJ_PU, i);
		int cpu = (int)pu->os_index, s = pu_socket(h, pu);

		if (!pu_usable(pu))
			continue;
		t->cpu_socket[cpu] = s;
		if (t->socket_first_cpu[s] < 0 || cpu < t->socket_first_cpu[s])
			t->socket_first_cpu[s] = cpu;
	}
	topo_cores(t, h);
	t->threads_per_core = topo_threads_per_core(h);
	return 0;
}

int pmon_topo_load(struct pmon_topo *t, const char *source, char *why, size_t whylen)
{
	hwloc_topology_t h;
	int rc;

	if (!t)
		return PMON_EINVAL;
	memset(t, 0, sizeof(*t));
	if ((rc = pmon_env_hostile(why, whylen)))
		return rc;
	if (hwloc_topology_init(&h) != 0) {
		pmon_why(why, whylen, 0, "hwloc_topology_init failed");
		return PMON_ENOMEM;
	}
	rc = topo_source(h, source, why, whylen);
	if (rc == 0 && hwloc_topology_load(h) != 0) {
		pmon_why(why, whylen, 0, "hwloc cannot load the topology%s%s",
			 source ? " from " : "", source ? source : "");
		rc = PMON_EIO;
	}
	if (rc == 0) {
		t->hw = h;
		rc = topo_fill(t, h, why, whylen);
	} else {
		hwloc_topology_destroy(h);
	}
	if (rc != 0)
		pmon_topo_free(t);
	return rc;
}

void pmon_topo_free(struct pmon_topo *t)
{
	if (!t)
		return;
	free(t->cpu_socket);
	free(t->cpu_core);
	free(t->socket_first_cpu);
	if (t->hw)
		hwloc_topology_destroy((hwloc_topology_t)t->hw);
	memset(t, 0, sizeof(*t));
}

int pmon_topo_pci_socket(const struct pmon_topo *t, pmon_pci_addr_t d)
{
	hwloc_topology_t h;
	hwloc_obj_t obj;

	if (!t || !t->hw)
		return -1;
	h = (hwloc_topology_t)t->hw;
	obj = hwloc_get_pcidev_by_busid(h, d.domain, d.bus, d.dev, d.func);
	if (!obj)
		return -1;
	for (obj = hwloc_get_non_io_ancestor_obj(h, obj); obj; obj = obj->parent)
		if (obj->type == HWLOC_OBJ_PACKAGE)
			return (int)obj->logical_index;
	return -1;
}
