/*
 * test_busmap.c - the hardware backend (access_hw.c) and the bus -> socket
 * map (busmap.c) on fake device files: sparse MSR files, a fake sysfs PCI
 * tree, a fake cpuinfo, and hwloc XML topologies for the cross-check.
 */
#define _GNU_SOURCE

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "fake_hw.h"
#include "pmon/pmon.h"
#include "access.h"
#include "busmap.h"
#include "topology.h"

/* The reason a register access gives when it fails. */
static char op_why[256];

static char tmp[64];

static pmon_pci_addr_t A(unsigned domain, unsigned bus, unsigned dev, unsigned func)
{
	pmon_pci_addr_t a = { (uint16_t)domain, (uint8_t)bus, (uint8_t)dev, (uint8_t)func };
	return a;
}

/* GIDNIDMAP of a machine whose socket 0 has node ID 1 and socket 1 node ID 0;
 * the unused fields hold 7. */
#define GIDNIDMAP_SWAPPED 0xffffc1u   /* fields: 1, 0, 7, 7, 7, 7, 7, 7 */
/* CPUNODEID: other bits set, to check that only bits 2:0 count. */
#define CPUNODEID(node) (0x00000c28u | (node))

/* A world under tmp/name: msr/ (4 CPUs), sys/ (PCI), cpuinfo. */
static void make_world(char *base, size_t len, const char *name)
{
	char p[256];

	snprintf(base, len, "%s/%s", tmp, name);
	snprintf(p, sizeof(p), "%s/msr", base);
	CHECK(fake_msr_files(p, 4) == 0, "MSR files");
	snprintf(p, sizeof(p), "%s/cpuinfo", base);
	CHECK(fake_mkdir_p(base) == 0 && fake_cpuinfo(p) == 0, "cpuinfo");
}

static int open_world(const char *base, struct pmon_access **a, char *why, size_t whylen)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/msr", base);
	setenv("PMON_MSR_ROOT", p, 1);
	snprintf(p, sizeof(p), "%s/sys", base);
	setenv("PMON_PCI_SYSFS", p, 1);
	snprintf(p, sizeof(p), "%s/cpuinfo", base);
	setenv("PMON_CPUINFO", p, 1);
	return pmon_hw_access_open(a, 4, why, whylen);
}

static int load_xml(struct pmon_topo *t, const char *name, const struct fake_pcidev *pci, int n)
{
	char path[128], src[140], why[256] = "";

	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	if (fake_hwloc_xml(path, 2, 2, 1, 0, pci, n) != 0)
		return -1;
	snprintf(src, sizeof(src), "xml:%s", path);
	return pmon_topo_load(t, src, why, sizeof(why));
}

static struct timespec mtime_of(const char *path)
{
	struct stat st;
	struct timespec z = { 0, 0 };

	return stat(path, &st) == 0 ? st.st_mtim : z;
}

static int same_time(struct timespec x, struct timespec y)
{
	return x.tv_sec == y.tv_sec && x.tv_nsec == y.tv_nsec;
}

/* The backend itself: identity, register access, no writes at open. */
static void test_backend(const char *base, struct pmon_access *a)
{
	char p[256];
	struct pmon_cpuid id;
	uint64_t v = 0;
	uint32_t w = 0;
	pmon_pci_addr_t out[4];

	CHECK(!strcmp(a->ops->name, "msr"), "backend name %s", a->ops->name);
	CHECK(a->ops->event_modeled == NULL, "event_modeled is NULL on hardware");
	CHECK(a->ops->topology == NULL, "topology is NULL on hardware");
	CHECK_EQ_INT(a->ops->cpu_ident(a, &id, op_why, sizeof op_why), PMON_OK, "cpu_ident");
	CHECK(!strcmp(id.vendor, "GenuineIntel"), "vendor %s", id.vendor);
	CHECK_EQ_INT(id.family, 6, "family");
	CHECK_EQ_INT(id.model, 45, "model");
	CHECK_EQ_INT(id.stepping, 7, "stepping");
	CHECK(!strcmp(id.brand, "Intel(R) Xeon(R) CPU E5-2680 0 @ 2.70GHz"), "brand %s", id.brand);

	snprintf(p, sizeof(p), "%s/msr", base);
	CHECK(fake_msr_put(p, 2, 0x1a7, 0x3f80408fffULL) == 0, "preset");
	CHECK_EQ_INT(a->ops->msr_read(a, 2, 0x1a7, &v, op_why, sizeof op_why), PMON_OK, "msr_read");
	CHECK_EQ_U64(v, 0x3f80408fffULL, "MSR_OFFCORE_RSP_1 of CPU 2");
	CHECK_EQ_INT(a->ops->msr_write(a, 3, 0xc24, 0x10003, op_why, sizeof op_why), PMON_OK, "msr_write");
	CHECK_EQ_U64(fake_msr_get(p, 3, 0xc24), 0x10003, "PCU box control in CPU 3's file");
	CHECK_EQ_INT(a->ops->msr_read(a, 9, 0xc24, &v, op_why, sizeof op_why), PMON_ERANGE, "CPU 9 of 4");
	CHECK(strstr(op_why, "CPU 9") != NULL, "why: %s", op_why);

	CHECK_EQ_INT(a->ops->pci_find(a, 0x8086, 0x3cb1, out, 4, op_why, sizeof op_why), 2, "pci_find iMC ch1");
	CHECK(out[0].bus == 0x3f && out[1].bus == 0x7f && out[0].dev == 16 && out[0].func == 1,
	      "iMC ch1 addresses");
	CHECK_EQ_INT(a->ops->pci_write(a, A(0, 0x7f, 16, 1), 0xd8, 0x400304, op_why, sizeof op_why), PMON_OK, "pci_write");
	snprintf(p, sizeof(p), "%s/sys", base);
	CHECK_EQ_U64(fake_pci_get(p, 0, 0x7f, 16, 1, 0xd8), 0x400304, "iMC ctl0 in the file");
	CHECK_EQ_INT(a->ops->pci_read(a, A(0, 0x7f, 16, 1), 0xd8, &w, op_why, sizeof op_why), PMON_OK, "pci_read");
	CHECK_EQ_U64(w, 0x400304, "iMC ctl0 through the backend");
	CHECK_EQ_INT(a->ops->pci_read(a, A(0, 0x7f, 16, 2), 0xd8, &w, op_why, sizeof op_why), PMON_ENODEV, "absent function");
	CHECK(strstr(op_why, "0000:7f:10.2") != NULL, "why: %s", op_why);
}

/* Socket 0's UBox sits on the higher bus: the map must follow the registers. */
static void test_permuted(void)
{
	static const struct fake_pcidev agree[] = {
		{ 0x3f, 11, 0, 0x8086, 0x3ce0, 1 }, { 0x7f, 11, 0, 0x8086, 0x3ce0, 0 },
	};
	static const struct fake_pcidev by_bus[] = {
		{ 0x3f, 11, 0, 0x8086, 0x3ce0, 0 }, { 0x7f, 11, 0, 0x8086, 0x3ce0, 1 },
	};
	struct pmon_access *a = NULL;
	struct pmon_busmap bm;
	struct pmon_topo t;
	struct timespec before[3];
	char base[128], sys[160], files[3][256], why[256] = "";
	int rc;

	make_world(base, sizeof(base), "permuted");
	snprintf(sys, sizeof(sys), "%s/sys", base);
	CHECK(fake_snbep_socket(sys, 0x3f, 1, CPUNODEID(0), GIDNIDMAP_SWAPPED) == 0, "bus 0x3f");
	CHECK(fake_snbep_socket(sys, 0x7f, 1, CPUNODEID(1), GIDNIDMAP_SWAPPED) == 0, "bus 0x7f");
	snprintf(files[0], sizeof(files[0]), "%s/msr/0/msr", base);
	snprintf(files[1], sizeof(files[1]), "%s/devices/0000:3f:0b.0/config", sys);
	snprintf(files[2], sizeof(files[2]), "%s/devices/0000:7f:10.0/config", sys);
	for (int i = 0; i < 3; i++)
		before[i] = mtime_of(files[i]);
	usleep(20000);

	rc = open_world(base, &a, why, sizeof(why));
	CHECK_EQ_INT(rc, PMON_OK, "hardware backend on fake files");
	if (rc) {
		fprintf(stderr, "  %s\n", why);
		return;
	}
	rc = pmon_busmap_build(a, NULL, &bm, why, sizeof(why));
	CHECK_EQ_INT(rc, PMON_OK, "busmap");
	for (int i = 0; i < 3; i++)
		CHECK(same_time(before[i], mtime_of(files[i])), "no write at open/busmap: %s",
		      files[i]);

	CHECK_EQ_INT(bm.nsockets, 2, "sockets with a UBox");
	CHECK_EQ_INT(bm.domain, 0, "domain");
	CHECK_EQ_INT(bm.socket_bus[0], 0x7f, "socket 0 UBox bus");
	CHECK_EQ_INT(bm.socket_bus[1], 0x3f, "socket 1 UBox bus");
	CHECK_EQ_INT(bm.socket_bus[2], -1, "no socket 2");
	/* node IDs from the registers: bus 0x3f's UBox is node 0 and socket 1 */
	CHECK_EQ_INT(bm.socket_node[0], 1, "socket 0 is node 1 (CPUNODEID of bus 0x7f)");
	CHECK_EQ_INT(bm.socket_node[1], 0, "socket 1 is node 0 (CPUNODEID of bus 0x3f)");
	CHECK_EQ_INT(bm.socket_node[2], -1, "no socket 2: no node");
	CHECK_EQ_INT(bm.bus_socket[0x3f], 1, "bus 0x3f");
	CHECK_EQ_INT(bm.bus_socket[0x7f], 0, "bus 0x7f");
	/* Inheritance: a bus takes the next higher UBox bus's socket. */
	CHECK_EQ_INT(bm.bus_socket[0x00], 1, "bus 0x00 inherits from 0x3f");
	CHECK_EQ_INT(bm.bus_socket[0x3e], 1, "bus 0x3e inherits from 0x3f");
	CHECK_EQ_INT(bm.bus_socket[0x40], 0, "bus 0x40 inherits from 0x7f");
	CHECK_EQ_INT(bm.bus_socket[0x7e], 0, "bus 0x7e inherits from 0x7f");
	CHECK_EQ_INT(bm.bus_socket[0x80], -1, "bus 0x80 above every UBox");
	CHECK_EQ_INT(bm.bus_socket[0xff], -1, "bus 0xff above every UBox");
	CHECK_EQ_INT(pmon_busmap_socket(&bm, A(0, 0x7f, 16, 4)), 0, "iMC 7f:10.4");
	CHECK_EQ_INT(pmon_busmap_socket(&bm, A(0, 0x3f, 16, 0)), 1, "iMC 3f:10.0");
	CHECK_EQ_INT(pmon_busmap_socket(&bm, A(1, 0x3f, 16, 0)), -1, "other domain");
	CHECK(bm.warn[0] == '\0', "no warning without hwloc: %s", bm.warn);

	/* hwloc agrees. */
	if (load_xml(&t, "agree.xml", agree, 2) == 0) {
		CHECK_EQ_INT(pmon_busmap_build(a, &t, &bm, why, sizeof(why)), PMON_OK, "with hwloc");
		CHECK(bm.warn[0] == '\0', "hwloc agrees, no warning: %s", bm.warn);
		CHECK_EQ_INT(bm.bus_socket[0x7f], 0, "bus 0x7f");
		pmon_topo_free(&t);
	} else {
		CHECK(0, "agree.xml");
	}

	/* hwloc places the UBoxes by bus order: both disagreements reported,
	 * the registers' answer kept. */
	if (load_xml(&t, "by_bus.xml", by_bus, 2) == 0) {
		CHECK_EQ_INT(pmon_busmap_build(a, &t, &bm, why, sizeof(why)), PMON_OK, "with hwloc");
		CHECK(strstr(bm.warn, "bus 0x3f: UBox node-ID registers say socket 1") != NULL,
		      "warn names bus 0x3f and the register answer: %s", bm.warn);
		CHECK(strstr(bm.warn, "GIDNIDMAP 0xffffc1), hwloc says socket 0; bus 0x7f") != NULL,
		      "warn gives hwloc's answer for 0x3f: %s", bm.warn);
		CHECK(strstr(bm.warn, "bus 0x7f: UBox node-ID registers say socket 0") != NULL &&
		      strstr(bm.warn, "hwloc says socket 1") != NULL,
		      "warn covers bus 0x7f: %s", bm.warn);
		CHECK(strstr(bm.warn, "GIDNIDMAP 0xffffc1") != NULL, "warn shows GIDNIDMAP: %s",
		      bm.warn);
		CHECK_EQ_INT(bm.bus_socket[0x3f], 1, "registers win for 0x3f");
		CHECK_EQ_INT(bm.bus_socket[0x7f], 0, "registers win for 0x7f");
		pmon_topo_free(&t);
	} else {
		CHECK(0, "by_bus.xml");
	}

	/* hwloc without PCI objects knows nothing: no warning. */
	if (pmon_topo_load(&t, "synthetic:package:2 core:8 pu:2", why, sizeof(why)) == 0) {
		CHECK_EQ_INT(pmon_busmap_build(a, &t, &bm, why, sizeof(why)), PMON_OK, "synthetic");
		CHECK(bm.warn[0] == '\0', "unknown placement is no disagreement: %s", bm.warn);
		pmon_topo_free(&t);
	}

	test_backend(base, a);
	a->ops->close(a);
}

static void test_no_ubox(void)
{
	struct pmon_access *a = NULL;
	struct pmon_busmap bm;
	char base[128], sys[160], why[256] = "";

	make_world(base, sizeof(base), "noubox");
	snprintf(sys, sizeof(sys), "%s/sys", base);
	CHECK(fake_snbep_socket(sys, 0x3f, 0, 0, 0) == 0, "iMC only");
	CHECK_EQ_INT(open_world(base, &a, why, sizeof(why)), PMON_OK, "open");
	if (!a)
		return;
	bm.nsockets = 99;
	CHECK_EQ_INT(pmon_busmap_build(a, NULL, &bm, why, sizeof(why)), PMON_ENODEV, "no UBox");
	CHECK(strstr(why, "8086:3ce0") && strstr(why, "UBox"), "why: %s", why);
	CHECK_EQ_INT(bm.nsockets, 0, "no sockets");
	CHECK_EQ_INT(bm.bus_socket[0x3f], -1, "bus unmapped");
	a->ops->close(a);
}

/* A node ID missing from GIDNIDMAP, and two UBoxes claiming one socket. */
static void test_bad_node_ids(void)
{
	struct pmon_access *a = NULL;
	struct pmon_busmap bm;
	char base[128], sys[160], why[256] = "";

	make_world(base, sizeof(base), "badnid");
	snprintf(sys, sizeof(sys), "%s/sys", base);
	CHECK(fake_snbep_socket(sys, 0x1f, 1, CPUNODEID(0), 0x08) == 0, "bus 0x1f node 0");
	CHECK(fake_snbep_socket(sys, 0x3f, 1, CPUNODEID(5), 0x08) == 0, "bus 0x3f node 5");
	CHECK(fake_snbep_socket(sys, 0x7f, 1, CPUNODEID(1), 0x08) == 0, "bus 0x7f node 1");
	CHECK(fake_snbep_socket(sys, 0xbf, 1, CPUNODEID(1), 0x08) == 0, "bus 0xbf node 1 again");
	CHECK_EQ_INT(open_world(base, &a, why, sizeof(why)), PMON_OK, "open");
	if (!a)
		return;
	CHECK_EQ_INT(pmon_busmap_build(a, NULL, &bm, why, sizeof(why)), PMON_OK, "build");
	CHECK_EQ_INT(bm.nsockets, 2, "two usable UBoxes");
	CHECK_EQ_INT(bm.bus_socket[0x1f], 0, "bus 0x1f");
	CHECK_EQ_INT(bm.bus_socket[0x7f], 1, "bus 0x7f");
	CHECK_EQ_INT(bm.bus_socket[0x3f], 1, "bus 0x3f (unmapped UBox) inherits");
	CHECK_EQ_INT(bm.bus_socket[0xbf], -1, "bus 0xbf (duplicate) unmapped");
	CHECK(strstr(bm.warn, "bus 0x3f: local node ID 5") != NULL, "warn: %s", bm.warn);
	CHECK(strstr(bm.warn, "bus 0xbf") && strstr(bm.warn, "bus 0x7f"), "warn: %s", bm.warn);
	a->ops->close(a);
}

/* Eight sockets, every one placed elsewhere by hwloc: warn is bounded. */
static void test_many_disagreements(void)
{
	struct fake_pcidev pci[PMON_MAX_SOCKETS];
	struct pmon_access *a = NULL;
	struct pmon_busmap bm;
	struct pmon_topo t;
	char base[128], sys[160], xml[160], src[170], why[256] = "";
	size_t len;

	make_world(base, sizeof(base), "eight");
	snprintf(sys, sizeof(sys), "%s/sys", base);
	for (int i = 0; i < PMON_MAX_SOCKETS; i++) {
		unsigned bus = 0x1f + 0x20 * (unsigned)i;

		/* GIDNIDMAP 0xfac688: field i holds node ID i. */
		CHECK(fake_snbep_socket(sys, bus, 1, CPUNODEID((unsigned)i), 0xfac688) == 0, "socket");
		pci[i] = (struct fake_pcidev){ bus, 11, 0, 0x8086, 0x3ce0, PMON_MAX_SOCKETS - 1 - i };
	}
	snprintf(xml, sizeof(xml), "%s/eight.xml", tmp);
	snprintf(src, sizeof(src), "xml:%s", xml);
	CHECK(fake_hwloc_xml(xml, PMON_MAX_SOCKETS, 1, 1, 0, pci, PMON_MAX_SOCKETS) == 0, "XML");
	CHECK_EQ_INT(pmon_topo_load(&t, src, why, sizeof(why)), PMON_OK, "load XML");
	CHECK_EQ_INT(open_world(base, &a, why, sizeof(why)), PMON_OK, "open");
	if (!a || !t.hw)
		return;
	CHECK_EQ_INT(pmon_busmap_build(a, &t, &bm, why, sizeof(why)), PMON_OK, "build");
	CHECK_EQ_INT(bm.nsockets, 8, "eight sockets");
	CHECK_EQ_INT(bm.socket_bus[7], 0xff, "socket 7 on bus 0xff");
	CHECK_EQ_INT(bm.bus_socket[0x5f], 2, "bus 0x5f");
	len = strlen(bm.warn);
	CHECK_EQ_INT(len, sizeof(bm.warn) - 1, "warn filled, not overrun");
	CHECK(!strcmp(bm.warn + len - 3, "..."), "truncation marked: %s", bm.warn + len - 20);
	CHECK(strstr(bm.warn, "bus 0x1f: UBox node-ID registers say socket 0 ") == bm.warn &&
	      strstr(bm.warn, "hwloc says socket 7;") != NULL, "first disagreement: %s", bm.warn);
	pmon_topo_free(&t);
	a->ops->close(a);
}

static void test_open_errors(void)
{
	struct pmon_access *a = (struct pmon_access *)1;
	char base[128], p[256], why[256] = "";

	make_world(base, sizeof(base), "nosys");
	CHECK_EQ_INT(open_world(base, &a, why, sizeof(why)), PMON_ENODEV, "missing PCI tree");
	CHECK(a == NULL, "no backend");
	CHECK(strstr(why, "/nosys/sys/devices") != NULL, "why: %s", why);

	snprintf(base, sizeof(base), "%s/nomsr", tmp);
	snprintf(p, sizeof(p), "%s/sys", base);
	CHECK(fake_snbep_socket(p, 0x3f, 1, 0, 0) == 0, "PCI tree");
	CHECK_EQ_INT(open_world(base, &a, why, sizeof(why)), PMON_ENODEV, "missing MSR files");
	CHECK(strstr(why, "modprobe msr") != NULL, "why: %s", why);
}

int main(void)
{
	if (fake_tmpdir(tmp, sizeof(tmp)) != 0) {
		perror("mkdtemp");
		return 1;
	}
	test_permuted();
	test_no_ubox();
	test_bad_node_ids();
	test_many_disagreements();
	test_open_errors();
	fake_rmtree(tmp);
	return check_done("test_busmap");
}
