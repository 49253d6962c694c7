/*
 * test_sim_pci.c - the emulated PCI space: functions and IDs at the right
 * bus/dev/func, pci_find order, the UBox node-ID registers under several
 * nodeids= shapes, filter registers, and writes outside the PMON set.
 */
#include <string.h>

#include "sim_fixture.h"

static const struct {
	int dev, func;
	uint16_t id;
	uint32_t class_rev;
} expect[] = {
	{ 8, 2, 0x3c41, 0x11010007 }, { 8, 6, 0x3c86, 0x08800007 },
	{ 9, 2, 0x3c42, 0x11010007 }, { 9, 6, 0x3c96, 0x08800007 },
	{ 11, 0, 0x3ce0, 0x08800007 }, { 14, 1, 0x3c46, 0x11010007 },
	{ 16, 0, 0x3cb0, 0x08800007 }, { 16, 1, 0x3cb1, 0x08800007 },
	{ 16, 4, 0x3cb4, 0x08800007 }, { 16, 5, 0x3cb5, 0x08800007 },
	{ 19, 1, 0x3c43, 0x11010007 }, { 19, 5, 0x3c44, 0x11010007 },
	{ 19, 6, 0x3c45, 0x11010007 },
};

static void ids(void)
{
	machine(NULL);
	CHECK_EQ_INT(pmon_sim_socket_bus(sim, 0), 0x3f, "socket 0 bus");
	CHECK_EQ_INT(pmon_sim_socket_bus(sim, 1), 0x7f, "socket 1 bus");
	CHECK_EQ_INT(pmon_sim_socket_bus(sim, 2), -1, "no socket 2");
	for (int b = 0; b < 2; b++) {
		int bus = b ? 0x7f : 0x3f;
		for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
			int dev = expect[i].dev, fn = expect[i].func;
			CHECK_EQ_U64(rd(bus, dev, fn, 0), 0x8086u | ((uint32_t)expect[i].id << 16),
				     "vendor/device dword");
			CHECK_EQ_U64(rd(bus, dev, fn, 8), expect[i].class_rev, "class/revision");
			CHECK_EQ_U64(rd(bus, dev, fn, 0xC), 0x00800000, "header type");
			CHECK_EQ_U64(rd(bus, dev, fn, 0x100), 0, "undefined offset reads 0");
		}
	}
	/* absent functions: another function of a device, another bus */
	uint32_t v = 1;
	CHECK_EQ_INT(acc->ops->pci_read(acc, at(0x3f, 16, 2), 0, &v, op_why, sizeof op_why), PMON_ENODEV, "16.2 absent");
	CHECK_EQ_U64(v, 0, "absent read value");
	CHECK_EQ_INT(acc->ops->pci_read(acc, at(0x40, 16, 0), 0, &v, op_why, sizeof op_why), PMON_ENODEV, "bus 0x40");
	CHECK_EQ_INT(acc->ops->pci_read(acc, at(0xbf, 11, 0), 0, &v, op_why, sizeof op_why), PMON_ENODEV, "bus 0xbf (2S)");
	pmon_pci_addr_t d1 = { 1, 0x3f, 11, 0 };
	CHECK_EQ_INT(acc->ops->pci_read(acc, d1, 0, &v, op_why, sizeof op_why), PMON_ENODEV, "domain 1");
	CHECK_EQ_INT(wr(0x3f, 16, 2, 0xF4, 0), PMON_ENODEV, "write to an absent function");
	CHECK_EQ_INT(acc->ops->pci_read(acc, at(0x3f, 16, 0), 0x102, &v, op_why, sizeof op_why), PMON_EINVAL,
		     "unaligned offset");
	CHECK_EQ_INT(acc->ops->pci_read(acc, at(0x3f, 16, 0), 0x1000, &v, op_why, sizeof op_why), PMON_EINVAL,
		     "offset beyond 4 KiB");
	CHECK(strstr(op_why, "0x1000") != NULL, "why names the offset: %s", op_why);
}

static void find(void)
{
	pmon_pci_addr_t out[16];
	int n;

	machine(NULL);
	n = acc->ops->pci_find(acc, 0x8086, 0x3ce0, out, 16, op_why, sizeof op_why);
	CHECK_EQ_INT(n, 2, "two UBoxes");
	CHECK(out[0].bus == 0x3f && out[1].bus == 0x7f && out[0].dev == 11 && out[0].func == 0,
	      "UBoxes ascending");
	n = acc->ops->pci_find(acc, 0x8086, 0x3cb4, out, 16, op_why, sizeof op_why);
	CHECK_EQ_INT(n, 2, "iMC channel 2 on both sockets");
	CHECK(out[0].bus == 0x3f && out[0].dev == 16 && out[0].func == 4 && out[1].bus == 0x7f,
	      "channel 2 at 16.4");
	CHECK_EQ_INT(acc->ops->pci_find(acc, 0x8086, 0x3c45, out, 1, op_why, sizeof op_why), 2, "count beyond max");
	CHECK(out[0].bus == 0x3f && out[0].dev == 19 && out[0].func == 6, "first R3QPI1");
	CHECK_EQ_INT(acc->ops->pci_find(acc, 0x8086, 0x1234, out, 16, op_why, sizeof op_why), 0, "unknown device");
	CHECK_EQ_INT(acc->ops->pci_find(acc, 0x10de, 0x3ce0, out, 16, op_why, sizeof op_why), 0, "other vendor");
	CHECK_EQ_INT(acc->ops->pci_find(acc, 0x8086, 0x3c86, NULL, 0, op_why, sizeof op_why), 2, "count only");

	/* only `channels` iMC functions exist */
	machine("sockets=1,channels=2");
	CHECK_EQ_INT(acc->ops->pci_find(acc, 0x8086, 0x3cb1, out, 16, op_why, sizeof op_why), 1, "channel 1 exists");
	CHECK_EQ_INT(acc->ops->pci_find(acc, 0x8086, 0x3cb4, out, 16, op_why, sizeof op_why), 0, "channel 2 absent");
	CHECK_EQ_INT(acc->ops->pci_find(acc, 0x8086, 0x3cb5, out, 16, op_why, sizeof op_why), 0, "channel 3 absent");
	uint32_t v;
	CHECK_EQ_INT(acc->ops->pci_read(acc, at(0x3f, 16, 4), 0, &v, op_why, sizeof op_why), PMON_ENODEV, "16.4 absent");

	/* 4 sockets: buses 3f 7f bf ff; 6 sockets: 1f 3f ... bf */
	machine("sockets=4");
	n = acc->ops->pci_find(acc, 0x8086, 0x3c46, out, 16, op_why, sizeof op_why);
	CHECK_EQ_INT(n, 4, "four HAs");
	CHECK(out[0].bus == 0x3f && out[1].bus == 0x7f && out[2].bus == 0xbf && out[3].bus == 0xff,
	      "4-socket buses");
	machine("sockets=6,cores=2");
	n = acc->ops->pci_find(acc, 0x8086, 0x3c46, out, 16, op_why, sizeof op_why);
	CHECK_EQ_INT(n, 6, "six HAs");
	CHECK(out[0].bus == 0x1f && out[1].bus == 0x3f && out[5].bus == 0xbf, "6-socket buses");
	for (int s = 0; s < 6; s++)
		CHECK_EQ_INT(pmon_sim_socket_bus(sim, s), 0x1f + 0x20 * s, "socket_bus 6S");
}

/* Which package a bus belongs to, the kernel's way. */
static int package_of_bus(int bus)
{
	uint32_t node = rd(bus, 11, 0, 0x40) & 7, map = rd(bus, 11, 0, 0x54);
	for (int i = 0; i < 8; i++)
		if (((map >> (3 * i)) & 7) == node)
			return i;
	return -1;
}

static void nodeids(void)
{
	machine(NULL);
	CHECK_EQ_U64(rd(0x3f, 11, 0, 0x40), 0, "CPUNODEID socket 0");
	CHECK_EQ_U64(rd(0x7f, 11, 0, 0x40), 1, "CPUNODEID socket 1");
	CHECK_EQ_U64(rd(0x3f, 11, 0, 0x54), 0x8, "GIDNIDMAP 0,1");
	CHECK_EQ_INT(package_of_bus(0x3f), 0, "bus 3f -> package 0");
	CHECK_EQ_INT(package_of_bus(0x7f), 1, "bus 7f -> package 1");

	machine("nodeids=1,0");
	CHECK_EQ_INT(pmon_sim_socket_bus(sim, 0), 0x7f, "swapped: package 0 on 7f");
	CHECK_EQ_INT(pmon_sim_socket_bus(sim, 1), 0x3f, "swapped: package 1 on 3f");
	CHECK_EQ_U64(rd(0x3f, 11, 0, 0x40), 0, "CPUNODEID on 3f");
	CHECK_EQ_U64(rd(0x7f, 11, 0, 0x40), 1, "CPUNODEID on 7f");
	CHECK_EQ_U64(rd(0x7f, 11, 0, 0x54), 0x1, "GIDNIDMAP 1,0");
	CHECK_EQ_INT(package_of_bus(0x3f), 1, "bus 3f -> package 1");
	CHECK_EQ_INT(package_of_bus(0x7f), 0, "bus 7f -> package 0");

	/* node IDs that are not socket numbers */
	machine("nodeids=5,2");
	CHECK_EQ_U64(rd(0x3f, 11, 0, 0x40), 2, "node 2 has the lower bus");
	CHECK_EQ_U64(rd(0x7f, 11, 0, 0x40), 5, "node 5");
	CHECK_EQ_U64(rd(0x3f, 11, 0, 0x54), 5u | (2u << 3), "GIDNIDMAP 5,2");
	CHECK_EQ_INT(package_of_bus(0x3f), 1, "bus 3f -> package 1 (node 2)");
	CHECK_EQ_INT(package_of_bus(0x7f), 0, "bus 7f -> package 0 (node 5)");

	machine("sockets=4,nodeids=3,1,0,2");
	CHECK_EQ_INT(pmon_sim_socket_bus(sim, 0), 0xff, "node 3 -> 4th bus");
	CHECK_EQ_INT(pmon_sim_socket_bus(sim, 1), 0x7f, "node 1 -> 2nd bus");
	CHECK_EQ_INT(pmon_sim_socket_bus(sim, 2), 0x3f, "node 0 -> 1st bus");
	CHECK_EQ_INT(pmon_sim_socket_bus(sim, 3), 0xbf, "node 2 -> 3rd bus");
	for (int p = 0; p < 4; p++)
		CHECK_EQ_INT(package_of_bus(pmon_sim_socket_bus(sim, p)), p, "bus -> package");

	/* the boxes follow the package: traffic homed on package 0 shows up in
	 * the iMC on package 0's bus */
	machine("nodeids=1,0");
	CHECK_EQ_INT(wr(0x7f, 16, 0, 0xD8, 0x400304), 0, "CAS RD on bus 7f ch 0");
	CHECK_EQ_INT(wr(0x3f, 16, 0, 0xD8, 0x400304), 0, "CAS RD on bus 3f ch 0");
	CHECK_EQ_INT(pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, 1), 0, "one load, package 0");
	CHECK_EQ_U64(rd(0x7f, 16, 0, 0xA0), 1, "counted on package 0's bus");
	CHECK_EQ_U64(rd(0x3f, 16, 0, 0xA0), 0, "not on package 1's bus");
}

static void pmon_writes(void)
{
	uint32_t v;

	machine(NULL);
	/* UBox: nothing writable */
	CHECK_EQ_INT(wr(0x3f, 11, 0, 0x40, 3), PMON_EIO, "CPUNODEID write refused");
	CHECK_EQ_U64(rd(0x3f, 11, 0, 0x40), 0, "CPUNODEID unchanged");
	CHECK_EQ_INT(wr(0x3f, 11, 0, 0x54, 0), PMON_EIO, "GIDNIDMAP write refused");
	/* headers and undefined offsets */
	CHECK_EQ_INT(wr(0x3f, 16, 0, 0x00, 0), PMON_EIO, "ID write refused");
	CHECK_EQ_INT(wr(0x3f, 16, 0, 0x04, 6), PMON_EIO, "command write refused");
	CHECK_EQ_INT(wr(0x3f, 14, 1, 0x4C, 1), PMON_EIO, "HA 0x4C refused");
	CHECK_EQ_INT(wr(0x3f, 8, 2, 0x228, 1), PMON_EIO, "match on F2 refused (lives on F6)");
	CHECK_EQ_INT(wr(0x3f, 8, 6, 0xF4, 0), PMON_EIO, "box ctl on F6 refused");
	CHECK_EQ_INT(wr(0x3f, 19, 5, 0xE4, 0), PMON_EIO, "R3QPI has no CTL3");
	CHECK_EQ_INT(wr(0x3f, 19, 5, 0xB8, 0), PMON_EIO, "R3QPI has no CTR3");
	CHECK_EQ_INT(wr(0x3f, 19, 1, 0xF0, 0), PMON_EIO, "R2PCIe has no fixed ctl");
	CHECK_EQ_INT(wr(0x3f, 14, 1, 0xD0, 0), PMON_EIO, "HA has no fixed ctr");
	CHECK(strstr(op_why, "not a PMON register") != NULL, "why: %s", op_why);
	CHECK_EQ_INT(acc->ops->pci_read(acc, at(0x3f, 19, 5), 0xE4, &v, op_why, sizeof op_why), 0, "R3QPI 0xE4 read");
	CHECK_EQ_U64(v, 0, "R3QPI 0xE4 reads 0");

	/* the PMON set of each function accepts writes */
	static const struct { int dev, func; uint32_t off; } ok[] = {
		{ 14, 1, 0xF4 }, { 14, 1, 0xD8 }, { 14, 1, 0xE4 }, { 14, 1, 0xA0 }, { 14, 1, 0xBC },
		{ 14, 1, 0x40 }, { 14, 1, 0x44 }, { 14, 1, 0x48 },
		{ 16, 5, 0xF4 }, { 16, 5, 0xF0 }, { 16, 5, 0xD0 }, { 16, 5, 0xD4 }, { 16, 5, 0xE0 },
		{ 8, 2, 0xF4 }, { 8, 2, 0xD8 }, { 8, 2, 0xB8 }, { 9, 2, 0xE4 },
		{ 8, 6, 0x228 }, { 8, 6, 0x22C }, { 9, 6, 0x238 }, { 9, 6, 0x23C },
		{ 19, 1, 0xF4 }, { 19, 1, 0xE4 }, { 19, 6, 0xE0 }, { 19, 6, 0xB4 },
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
		CHECK_EQ_INT(wr(0x7f, ok[i].dev, ok[i].func, ok[i].off, 0), 0, "PMON write accepted");
}

static void filters(void)
{
	machine(NULL);
	/* HA match registers keep their valid bits */
	wr(0x3f, 14, 1, 0x40, 0x12345678);
	wr(0x3f, 14, 1, 0x44, 0xFFFFFFFF);
	wr(0x3f, 14, 1, 0x48, 0x3F);
	CHECK_EQ_U64(rd(0x3f, 14, 1, 0x40), 0x12345640, "ADDRMATCH0 bits 31:6");
	CHECK_EQ_U64(rd(0x3f, 14, 1, 0x44), 0x3FFF, "ADDRMATCH1 bits 13:0");
	CHECK_EQ_U64(rd(0x3f, 14, 1, 0x48), 0x3F, "OPCODEMATCH");
	CHECK_EQ_U64(pmon_sim_violation_count(sim), 2, "two reserved-bit writes");
	/* QPI match/mask in F6, per port, per socket */
	wr(0x7f, 9, 6, 0x228, 0x1C00);
	wr(0x7f, 9, 6, 0x238, 0x1FE0);
	wr(0x7f, 9, 6, 0x22C, 0x80000);
	wr(0x7f, 9, 6, 0x23C, 0xF0000);
	CHECK_EQ_U64(rd(0x7f, 9, 6, 0x228), 0x1C00, "MATCH0");
	CHECK_EQ_U64(rd(0x7f, 9, 6, 0x238), 0x1FE0, "MASK0");
	CHECK_EQ_U64(rd(0x7f, 9, 6, 0x22C), 0x80000, "MATCH1");
	CHECK_EQ_U64(rd(0x7f, 9, 6, 0x23C), 0xF0000, "MASK1");
	CHECK_EQ_U64(rd(0x7f, 8, 6, 0x228), 0, "port 0 untouched");
	CHECK_EQ_U64(rd(0x3f, 9, 6, 0x228), 0, "socket 0 untouched");
	wr(0x3f, 8, 6, 0x22C, 0x00100000);
	CHECK_EQ_U64(rd(0x3f, 8, 6, 0x22C), 0, "MATCH1 bit 20 reserved");
	CHECK_EQ_U64(pmon_sim_violation_count(sim), 3, "MATCH1 violation");
	const struct pmon_sim_violation *x = pmon_sim_violation_get(sim, 2);
	CHECK(x && !strcmp(x->reg, "QPI0 PKT_MATCH1") && x->bad == 0x00100000 && x->bus == 0x3f &&
	      x->dev == 8 && x->func == 6 && x->off == 0x22C, "violation record");
}

int main(void)
{
	ids();
	find();
	nodeids();
	pmon_writes();
	filters();
	sim_teardown();
	return check_done("test_sim_pci");
}
