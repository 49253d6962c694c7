/*
 * test_topology.c - topology.c: hwloc synthetic and XML topologies, this
 * machine, and the PCI function -> package look-up.
 */
#define _GNU_SOURCE

#include <dirent.h>
#include <string.h>
#include <unistd.h>

#include <hwloc.h>

#include "check.h"
#include "fake_hw.h"
#include "pmon/pmon.h"
#include "topology.h"

static char tmp[64];

static pmon_pci_addr_t A(unsigned domain, unsigned bus, unsigned dev, unsigned func)
{
	pmon_pci_addr_t a = { (uint16_t)domain, (uint8_t)bus, (uint8_t)dev, (uint8_t)func };
	return a;
}

static void test_snbep_shape(void)
{
	struct pmon_topo t;
	char why[256] = "";
	int rc = pmon_topo_load(&t, "synthetic:package:2 core:8 pu:2", why, sizeof(why));

	CHECK_EQ_INT(rc, PMON_OK, "load package:2 core:8 pu:2");
	if (rc) {
		fprintf(stderr, "  %s\n", why);
		return;
	}
	CHECK_EQ_INT(t.nsockets, 2, "sockets");
	CHECK_EQ_INT(t.ncpus, 32, "CPUs");
	CHECK_EQ_INT(t.cores_per_socket, 8, "cores per socket");
	CHECK_EQ_INT(t.threads_per_core, 2, "threads per core");
	/* hwloc numbers synthetic PUs in logical order: package 0 has 0..15. */
	CHECK_EQ_INT(t.cpu_socket[0], 0, "CPU 0 socket");
	CHECK_EQ_INT(t.cpu_socket[15], 0, "CPU 15 socket");
	CHECK_EQ_INT(t.cpu_socket[16], 1, "CPU 16 socket");
	CHECK_EQ_INT(t.cpu_socket[31], 1, "CPU 31 socket");
	CHECK_EQ_INT(t.cpu_core[0], 0, "CPU 0 core");
	CHECK_EQ_INT(t.cpu_core[1], 0, "CPU 1 core (sibling of CPU 0)");
	CHECK_EQ_INT(t.cpu_core[2], 1, "CPU 2 core");
	CHECK_EQ_INT(t.cpu_core[16], 0, "CPU 16 core (first of socket 1)");
	CHECK_EQ_INT(t.cpu_core[31], 7, "CPU 31 core");
	CHECK_EQ_INT(t.socket_first_cpu[0], 0, "socket 0 first CPU");
	CHECK_EQ_INT(t.socket_first_cpu[1], 16, "socket 1 first CPU");
	CHECK(t.hw != NULL, "hwloc topology kept");
	CHECK_EQ_INT(pmon_topo_pci_socket(&t, A(0, 0x3f, 11, 0)), -1, "no PCI in synthetic");
	pmon_topo_free(&t);
	CHECK(t.cpu_socket == NULL && t.hw == NULL, "freed");
}

static void test_no_packages(void)
{
	struct pmon_topo t;
	char why[256] = "";
	int rc = pmon_topo_load(&t, "synthetic:core:2 pu:1", why, sizeof(why));

	CHECK_EQ_INT(rc, PMON_OK, "load core:2 pu:1");
	if (rc)
		return;
	CHECK_EQ_INT(t.nsockets, 1, "one socket without packages");
	CHECK_EQ_INT(t.ncpus, 2, "CPUs");
	CHECK_EQ_INT(t.cpu_socket[0], 0, "CPU 0 socket");
	CHECK_EQ_INT(t.cpu_socket[1], 0, "CPU 1 socket");
	CHECK_EQ_INT(t.cpu_core[1], 1, "CPU 1 core");
	CHECK_EQ_INT(t.cores_per_socket, 2, "cores");
	CHECK_EQ_INT(t.threads_per_core, 1, "threads");
	CHECK_EQ_INT(t.socket_first_cpu[0], 0, "first CPU");
	pmon_topo_free(&t);

	rc = pmon_topo_load(&t, "synthetic:package:2 pu:3", why, sizeof(why));
	CHECK_EQ_INT(rc, PMON_OK, "load package:2 pu:3 (no cores)");
	if (rc)
		return;
	CHECK_EQ_INT(t.nsockets, 2, "sockets");
	CHECK_EQ_INT(t.cores_per_socket, 3, "each PU its own core");
	CHECK_EQ_INT(t.threads_per_core, 1, "one thread per core");
	CHECK_EQ_INT(t.cpu_core[4], 1, "CPU 4 is core 1 of socket 1");
	CHECK_EQ_INT(t.socket_first_cpu[1], 3, "socket 1 first CPU");
	pmon_topo_free(&t);
}

static void test_bad_sources(void)
{
	struct pmon_topo t;
	char why[256] = "", path[128];

	CHECK_EQ_INT(pmon_topo_load(&t, "synthetic:package:2 bogus:3", why, sizeof(why)),
		     PMON_EINVAL, "bad synthetic description");
	CHECK(strstr(why, "bogus") != NULL, "message: %s", why);
	CHECK_EQ_INT(pmon_topo_load(&t, "json:/x", why, sizeof(why)), PMON_EINVAL, "unknown source");
	CHECK(strstr(why, "json:/x") != NULL, "message: %s", why);
	snprintf(path, sizeof(path), "xml:%s/none.xml", tmp);
	CHECK(pmon_topo_load(&t, path, why, sizeof(why)) < 0, "missing XML file");
	CHECK(strstr(why, "none.xml") != NULL, "message: %s", why);
	CHECK(t.cpu_socket == NULL && t.hw == NULL, "nothing left allocated");
}

static int count_pci_functions(void)
{
	DIR *d = opendir("/sys/bus/pci/devices");
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static void test_this_machine(void)
{
	struct pmon_topo t;
	char why[256] = "";
	int rc = pmon_topo_load(&t, NULL, why, sizeof(why));
	long conf = sysconf(_SC_NPROCESSORS_CONF);

	CHECK_EQ_INT(rc, PMON_OK, "load this machine");
	if (rc)
		return;
	CHECK(t.nsockets >= 1, "at least one socket (%d)", t.nsockets);
	CHECK(t.ncpus >= 1 && t.ncpus <= (conf > 0 ? conf : 4096) + 64,
	      "CPU count %d plausible (sysconf %ld)", t.ncpus, conf);
	CHECK(t.socket_first_cpu[0] >= 0, "socket 0 has a CPU");
	CHECK_EQ_INT(t.cpu_socket[t.socket_first_cpu[0]], 0, "its first CPU is in socket 0");
	CHECK(t.threads_per_core >= 1 && t.cores_per_socket >= 1, "cores and threads");
	/* The PCI functions are kept (hwloc's Linux backend, without libpciaccess). */
	CHECK_EQ_INT(hwloc_get_nbobjs_by_type(t.hw, HWLOC_OBJ_PCI_DEVICE), count_pci_functions(),
		     "hwloc PCI objects = entries of /sys/bus/pci/devices");
	pmon_topo_free(&t);
}

/* Two packages, CPUs interleaved between them (CPU c in package c % 2), the
 * uncore functions of each socket under its package, a device at machine
 * level. */
static void test_xml_pci(void)
{
	static const struct fake_pcidev pci[] = {
		{ 0x3f, 11, 0, 0x8086, 0x3ce0, 0 },
		{ 0x3f, 16, 0, 0x8086, 0x3cb0, 0 },
		{ 0x7f, 11, 0, 0x8086, 0x3ce0, 1 },
		{ 0x7f, 16, 4, 0x8086, 0x3cb4, 1 },
		{ 0x00, 0, 0, 0x8086, 0x3c00, -1 },
	};
	struct pmon_topo t;
	char path[128], src[140], why[256] = "";
	int rc;

	snprintf(path, sizeof(path), "%s/two.xml", tmp);
	CHECK(fake_hwloc_xml(path, 2, 4, 2, 1, pci, 5) == 0, "write XML");
	snprintf(src, sizeof(src), "xml:%s", path);
	rc = pmon_topo_load(&t, src, why, sizeof(why));
	CHECK_EQ_INT(rc, PMON_OK, "load XML");
	if (rc) {
		fprintf(stderr, "  %s\n", why);
		return;
	}
	CHECK_EQ_INT(t.nsockets, 2, "sockets");
	CHECK_EQ_INT(t.ncpus, 16, "CPUs");
	CHECK_EQ_INT(t.cores_per_socket, 4, "cores per socket");
	CHECK_EQ_INT(t.threads_per_core, 2, "threads per core");
	CHECK_EQ_INT(t.cpu_socket[0], 0, "CPU 0 socket");
	CHECK_EQ_INT(t.cpu_socket[1], 1, "CPU 1 socket");
	CHECK_EQ_INT(t.cpu_socket[14], 0, "CPU 14 socket");
	CHECK_EQ_INT(t.cpu_socket[15], 1, "CPU 15 socket");
	CHECK_EQ_INT(t.socket_first_cpu[0], 0, "socket 0 first CPU");
	CHECK_EQ_INT(t.socket_first_cpu[1], 1, "socket 1 first CPU");
	/* Package 1's PUs in order 1,3,5,...: CPUs 1 and 3 share core 0. */
	CHECK_EQ_INT(t.cpu_core[3], 0, "CPU 3 core");
	CHECK_EQ_INT(t.cpu_core[5], 1, "CPU 5 core");

	CHECK_EQ_INT(pmon_topo_pci_socket(&t, A(0, 0x3f, 11, 0)), 0, "UBox bus 0x3f");
	CHECK_EQ_INT(pmon_topo_pci_socket(&t, A(0, 0x3f, 16, 0)), 0, "iMC bus 0x3f");
	CHECK_EQ_INT(pmon_topo_pci_socket(&t, A(0, 0x7f, 11, 0)), 1, "UBox bus 0x7f");
	CHECK_EQ_INT(pmon_topo_pci_socket(&t, A(0, 0x7f, 16, 4)), 1, "iMC bus 0x7f");
	CHECK_EQ_INT(pmon_topo_pci_socket(&t, A(0, 0x00, 0, 0)), -1, "machine-level device");
	CHECK_EQ_INT(pmon_topo_pci_socket(&t, A(0, 0x7f, 16, 5)), -1, "unknown device");
	CHECK_EQ_INT(pmon_topo_pci_socket(&t, A(1, 0x3f, 11, 0)), -1, "other domain");
	CHECK_EQ_INT(pmon_topo_pci_socket(NULL, A(0, 0x3f, 11, 0)), -1, "no topology");
	pmon_topo_free(&t);
}

int main(void)
{
	if (fake_tmpdir(tmp, sizeof(tmp)) != 0) {
		perror("mkdtemp");
		return 1;
	}
	test_snbep_shape();
	test_no_packages();
	test_bad_sources();
	test_this_machine();
	test_xml_pci();
	fake_rmtree(tmp);
	return check_done("test_topology");
}
