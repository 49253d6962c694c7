/*
 * test_sim_box.c - box and counter control semantics: freeze/unfreeze,
 * enable, rst_ctrs, rst_ctrl, per-counter rst, the HA/iMC reserved reset
 * bits, reserved control bits, counter writes, per-socket MSR boxes.
 */
#include <string.h>

#include "sim_fixture.h"

static uint64_t ctr(int bus, int dev, int func, uint32_t lo)
{
	return rd(bus, dev, func, lo) | ((uint64_t)rd(bus, dev, func, lo + 4) << 32);
}

/* 1 us = 2700 uclk, 800 dclk, 800 pclk, 1000 qclk with the default shape */
static void cbo_freeze(void)
{
	machine(NULL);
	/* CBo 0 of socket 0, through CPU 0; CTL0 = CLOCKTICKS, enabled */
	CHECK_EQ_INT(wrmsr(0, 0xD04, 0x10100), 0, "freeze");
	CHECK_EQ_INT(wrmsr(0, 0xD10, 0x400000), 0, "CTL0 clockticks en");
	CHECK_EQ_INT(wrmsr(0, 0xD11, 0x000000), 0, "CTL1 clockticks, not enabled");
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(rdmsr(0, 0xD16), 0, "frozen: no count");
	CHECK_EQ_INT(wrmsr(0, 0xD04, 0x10000), 0, "unfreeze");
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(rdmsr(0, 0xD16), 2700, "unfrozen: 1 us of uclk");
	CHECK_EQ_U64(rdmsr(0, 0xD17), 0, "en clear: no count");
	CHECK_EQ_U64(rdmsr(5, 0xD16), 2700, "same box from CPU 5 (socket 0)");
	CHECK_EQ_U64(rdmsr(16, 0xD16), 0, "socket 1's CBo 0 is another box");
	CHECK_EQ_U64(rdmsr(0, 0xD04), 0, "BOX_CTL reads 0 (write-only)");
	CHECK_EQ_U64(rdmsr(0, 0xD10), 0x400000, "CTL0 reads back");
	wrmsr(0, 0xD04, 0x10100);
	pmon_sim_advance_ns(sim, 5000);
	CHECK_EQ_U64(rdmsr(0, 0xD16), 2700, "frozen again");
	/* frz without frz_en does not freeze */
	wrmsr(0, 0xD04, 0x00100);
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(rdmsr(0, 0xD16), 5400, "frz without frz_en counts");
	/* frz_en then frz: each write sets both fields */
	wrmsr(0, 0xD04, 0x10000);
	wrmsr(0, 0xD04, 0x00100);
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(rdmsr(0, 0xD16), 8100, "frz_en is not sticky");
	/* other CBos are independent */
	CHECK_EQ_U64(rdmsr(0, 0xD36), 0, "CBo 1 not programmed");
	wrmsr(0, 0xD30 + 3, 0x400000);
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(rdmsr(0, 0xD39), 2700, "CBo 1 CTR3");
	CHECK_EQ_U64(pmon_sim_violation_count(sim), 0, "no violations so far");
}

static void cbo_resets(void)
{
	machine(NULL);
	wrmsr(1, 0xD44, 0x10000);
	for (int i = 0; i < 4; i++)
		wrmsr(1, 0xD50 + (uint32_t)i, 0x400000);
	pmon_sim_advance_ns(sim, 100);
	for (int i = 0; i < 4; i++)
		CHECK_EQ_U64(rdmsr(1, 0xD56 + (uint32_t)i), 270, "CBo2 counters");
	/* rst_ctrs zeroes the counters, keeps the controls */
	wrmsr(1, 0xD44, 0x10102);
	for (int i = 0; i < 4; i++) {
		CHECK_EQ_U64(rdmsr(1, 0xD56 + (uint32_t)i), 0, "rst_ctrs");
		CHECK_EQ_U64(rdmsr(1, 0xD50 + (uint32_t)i), 0x400000, "controls kept");
	}
	wrmsr(1, 0xD44, 0x10000);
	pmon_sim_advance_ns(sim, 100);
	/* rst_ctrl zeroes the controls, keeps the counters */
	wrmsr(1, 0xD44, 0x10001);
	for (int i = 0; i < 4; i++) {
		CHECK_EQ_U64(rdmsr(1, 0xD50 + (uint32_t)i), 0, "rst_ctrl");
		CHECK_EQ_U64(rdmsr(1, 0xD56 + (uint32_t)i), 270, "counters kept");
	}
	pmon_sim_advance_ns(sim, 100);
	CHECK_EQ_U64(rdmsr(1, 0xD56), 270, "no longer enabled");
	/* per-counter rst (bit 17): clears that counter only, reads back 0 */
	wrmsr(1, 0xD50, 0x400000);
	wrmsr(1, 0xD51, 0x400000);
	pmon_sim_advance_ns(sim, 100);
	CHECK_EQ_INT(wrmsr(1, 0xD50, 0x420000), 0, "CTL0 with rst");
	CHECK_EQ_U64(rdmsr(1, 0xD56), 0, "CTR0 cleared");
	CHECK_EQ_U64(rdmsr(1, 0xD57), 540, "CTR1 kept");
	CHECK_EQ_U64(rdmsr(1, 0xD50), 0x400000, "rst reads 0");
	/* software writes the counter; bits above 44 are a violation */
	CHECK_EQ_INT(wrmsr(1, 0xD57, 0x123456789ABull), 0, "CTR1 write");
	CHECK_EQ_U64(rdmsr(1, 0xD57), 0x123456789ABull, "CTR1 value");
	CHECK_EQ_INT(wrmsr(1, 0xD57, 0xF0000000000ABull), 0, "CTR1 write beyond 44 bits");
	CHECK_EQ_U64(rdmsr(1, 0xD57), 0xAB, "masked to 44 bits");
	CHECK_EQ_U64(pmon_sim_violation_count(sim), 1, "violation for bits 47:44");
	/* filter: reserved 9:5 */
	wrmsr(1, 0xD54, 0xFFFFFFFF);
	CHECK_EQ_U64(rdmsr(1, 0xD54), 0xFFFFFC1F, "filter valid bits");
	CHECK_EQ_U64(pmon_sim_violation_count(sim), 2, "filter violation");
	/* CBos beyond the cores do not exist */
	machine("sockets=1,cores=4");
	CHECK_EQ_INT(wrmsr(0, 0xD64, 0x10000), 0, "CBo 3 exists");
	CHECK_EQ_INT(wrmsr(0, 0xD84, 0x10000), PMON_EIO, "CBo 4 box ctl: #GP");
	uint64_t v = 7;
	CHECK_EQ_INT(acc->ops->msr_read(acc, 0, 0xD96, &v, op_why, sizeof op_why), PMON_EIO, "CBo 4 CTR0 read: #GP");
	CHECK_EQ_U64(v, 0, "failed read value");
	CHECK_EQ_INT(acc->ops->msr_read(acc, 0, 0xD15, &v, op_why, sizeof op_why), PMON_EIO, "gap 0xD15");
}

static void ha_imc_reserved_resets(void)
{
	machine(NULL);
	/* HA (14.1): clockticks on CTR0, reads through both dwords */
	CHECK_EQ_INT(wr(0x3f, 14, 1, 0xF4, 0x10100), 0, "HA freeze");
	wr(0x3f, 14, 1, 0xD8, 0x400000);
	wr(0x3f, 14, 1, 0xDC, 0x400000);
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(ctr(0x3f, 14, 1, 0xA0), 0, "HA frozen");
	wr(0x3f, 14, 1, 0xF4, 0x10000);
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(ctr(0x3f, 14, 1, 0xA0), 2700, "HA CTR0");
	CHECK_EQ_U64(ctr(0x3f, 14, 1, 0xA8), 2700, "HA CTR1");
	CHECK_EQ_U64(rd(0x3f, 14, 1, 0xF4), 0, "HA BOX_CTL reads 0");

	/* bits 1:0 are reserved in the HA: a violation, no reset */
	CHECK_EQ_U64(pmon_sim_violation_count(sim), 0, "clean so far");
	CHECK_EQ_INT(wr(0x3f, 14, 1, 0xF4, 0x10103), 0, "HA write with rst bits (accepted)");
	CHECK_EQ_U64(pmon_sim_violation_count(sim), 1, "HA reserved reset bits: violation");
	const struct pmon_sim_violation *x = pmon_sim_violation_get(sim, 0);
	CHECK(x && !strcmp(x->reg, "HA BOX_CTL") && x->bad == 3 && x->value == 0x10103 &&
	      x->op == PMON_SIM_PCI_WRITE && x->bus == 0x3f && x->dev == 14 && x->func == 1 &&
	      x->off == 0xF4, "HA violation record");
	CHECK_EQ_U64(ctr(0x3f, 14, 1, 0xA0), 2700, "HA counter not reset");
	CHECK_EQ_U64(rd(0x3f, 14, 1, 0xD8), 0x400000, "HA control not reset");
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(ctr(0x3f, 14, 1, 0xA0), 2700, "but the freeze part applied");
	/* HA CTL bit 17 is reserved (no per-counter rst) */
	wr(0x3f, 14, 1, 0xD8, 0x420000);
	CHECK_EQ_U64(pmon_sim_violation_count(sim), 2, "HA CTL bit 17: violation");
	CHECK_EQ_U64(ctr(0x3f, 14, 1, 0xA0), 2700, "HA CTL bit 17 resets nothing");
	CHECK_EQ_U64(rd(0x3f, 14, 1, 0xD8), 0x400000, "bit 17 dropped");
	/* the way to zero HA counters: write both dwords */
	wr(0x3f, 14, 1, 0xA0, 0);
	wr(0x3f, 14, 1, 0xA4, 0);
	CHECK_EQ_U64(ctr(0x3f, 14, 1, 0xA0), 0, "HA CTR0 zeroed by software");
	wr(0x3f, 14, 1, 0xA4, 0x1234);
	wr(0x3f, 14, 1, 0xA0, 0x89ABCDEF);
	CHECK_EQ_U64(ctr(0x3f, 14, 1, 0xA0), 0x123489ABCDEFull, "both halves written");
	wr(0x3f, 14, 1, 0xA4, 0x10000);
	CHECK_EQ_U64(rd(0x3f, 14, 1, 0xA4), 0, "high dword: bit 48 does not exist");
	CHECK_EQ_U64(pmon_sim_violation_count(sim), 3, "high dword violation");

	/* iMC channel 1 (16.1): same rules, plus the fixed counter */
	wr(0x7f, 16, 1, 0xF4, 0x10100);
	wr(0x7f, 16, 1, 0xF0, 0x400000);
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(ctr(0x7f, 16, 1, 0xD0), 0, "iMC frozen: fixed counter too");
	wr(0x7f, 16, 1, 0xF4, 0x10000);
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(ctr(0x7f, 16, 1, 0xD0), 800, "DCLK 1 us");
	CHECK_EQ_U64(rd(0x7f, 16, 1, 0xF0), 0x400000, "FIXED_CTL reads back");
	CHECK_EQ_INT(wr(0x7f, 16, 1, 0xF4, 0x10002), 0, "iMC rst_ctrs (reserved)");
	CHECK_EQ_U64(pmon_sim_violation_count(sim), 4, "iMC reserved reset bit: violation");
	CHECK(!strcmp(pmon_sim_violation_get(sim, 3)->reg, "iMC1 BOX_CTL"), "iMC1 named");
	CHECK_EQ_U64(ctr(0x7f, 16, 1, 0xD0), 800, "no reset effect");
	/* the fixed counter's own rst (bit 19) works */
	wr(0x7f, 16, 1, 0xF0, 0x480000);
	CHECK_EQ_U64(ctr(0x7f, 16, 1, 0xD0), 0, "fixed rst");
	CHECK_EQ_U64(rd(0x7f, 16, 1, 0xF0), 0x400000, "fixed rst reads 0");
	wr(0x7f, 16, 1, 0xF0, 0x400001);
	CHECK_EQ_U64(pmon_sim_violation_count(sim), 5, "FIXED_CTL bit 0 reserved");
	CHECK_EQ_U64(rd(0x7f, 16, 1, 0xF0), 0x400000, "reserved bit dropped");
}

static void other_boxes(void)
{
	machine(NULL);
	/* PCU: pclk clockticks, rst_ctrs, 5-bit thresh */
	wrmsr(3, 0xC24, 0x10000);
	wrmsr(3, 0xC30, 0x400000);
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(rdmsr(3, 0xC36), 800, "PCU clockticks");
	wrmsr(3, 0xC24, 0x10002);
	CHECK_EQ_U64(rdmsr(3, 0xC36), 0, "PCU rst_ctrs");
	wrmsr(3, 0xC31, 0xE0400000);     /* occ_edge, occ_invert, bit 29 */
	CHECK_EQ_U64(rdmsr(3, 0xC31), 0xC0400000, "PCU bit 29 reserved, 31:30 valid");
	CHECK_EQ_U64(pmon_sim_violation_count(sim), 1, "PCU bit 29 violation");
	wrmsr(3, 0xC32, 0x00200100);      /* umask field does not exist */
	CHECK_EQ_U64(rdmsr(3, 0xC32), 0x00200000, "PCU has no umask; ext bit valid");
	CHECK_EQ_U64(pmon_sim_violation_count(sim), 2, "PCU umask violation");
	wrmsr(3, 0xC34, 0x14131211);
	CHECK_EQ_U64(rdmsr(3, 0xC34), 0x14131211, "PCU band filter");
	CHECK_EQ_U64(rdmsr(3, 0x3FC), 0, "C3 residency");
	CHECK_EQ_U64(rdmsr(3, 0x3FD), 0, "C6 residency");
	CHECK_EQ_INT(wrmsr(3, 0x3FC, 0), PMON_EIO, "C3 residency is read-only");

	/* UBox: no box control, counts as soon as enabled */
	uint64_t v;
	CHECK_EQ_INT(acc->ops->msr_read(acc, 0, 0xC00, &v, op_why, sizeof op_why), PMON_EIO, "no UBox global ctl");
	wrmsr(0, 0xC08, 0x400000);
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(rdmsr(0, 0xC09), 2700, "UCLK fixed counter");
	CHECK_EQ_U64(rdmsr(16, 0xC09), 0, "socket 1 UBox idle");
	wrmsr(0, 0xC10, 0x20400142);       /* thresh bit 29 does not exist */
	CHECK_EQ_U64(rdmsr(0, 0xC10), 0x00400142, "UBox 5-bit thresh");
	CHECK_EQ_U64(pmon_sim_violation_count(sim), 3, "UBox violation");
	wrmsr(0, 0xC11, 0x100400000ull);   /* bit 32 of a 32-bit control */
	CHECK_EQ_U64(rdmsr(0, 0xC11), 0x400000, "bits 63:32 dropped");
	CHECK_EQ_U64(pmon_sim_violation_count(sim), 4, "bit 32 violation");
	wrmsr(0, 0xC08, 0x480000);
	CHECK_EQ_U64(rdmsr(0, 0xC08), 0x400000, "UBox fixed ctl has no rst");
	CHECK_EQ_U64(pmon_sim_violation_count(sim), 5, "UBox fixed violation");
	wrmsr(0, 0xC16, 0x77);
	CHECK_EQ_U64(rdmsr(0, 0xC16), 0x77, "UBox CTR0 written");

	/* QPI port 1: qclk clockticks (0x14, no ext), rst_ctrl */
	wr(0x3f, 9, 2, 0xF4, 0x10000);
	wr(0x3f, 9, 2, 0xDC, 0x400014);
	wr(0x3f, 9, 2, 0xE0, 0x600014);    /* with ext: another event */
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_U64(ctr(0x3f, 9, 2, 0xA8), 1000, "QPI clockticks");
	CHECK_EQ_U64(ctr(0x3f, 9, 2, 0xB0), 0, "ext 0x14 not clockticks");
	CHECK_EQ_U64(rd(0x3f, 9, 2, 0xE0), 0x600014, "ext bit valid in QPI");
	wr(0x3f, 9, 2, 0xF4, 0x10001);
	CHECK_EQ_U64(rd(0x3f, 9, 2, 0xDC), 0, "QPI rst_ctrl");
	CHECK_EQ_U64(ctr(0x3f, 9, 2, 0xA8), 1000, "counter kept");

	/* R2PCIe and R3QPI: clockticks 0x01, rst_ctrs via PCI */
	wr(0x7f, 19, 1, 0xF4, 0x10000);
	wr(0x7f, 19, 1, 0xE4, 0x400001);
	wr(0x7f, 19, 6, 0xF4, 0x10000);
	wr(0x7f, 19, 6, 0xE0, 0x400001);
	pmon_sim_advance_ns(sim, 2000);
	CHECK_EQ_U64(ctr(0x7f, 19, 1, 0xB8), 5400, "R2PCIe CTR3");
	CHECK_EQ_U64(ctr(0x7f, 19, 6, 0xB0), 5400, "R3QPI1 CTR2");
	wr(0x7f, 19, 6, 0xF4, 0x10002);
	CHECK_EQ_U64(ctr(0x7f, 19, 6, 0xB0), 0, "R3QPI rst_ctrs");
	CHECK_EQ_U64(ctr(0x7f, 19, 1, 0xB8), 5400, "R2PCIe untouched");
	wr(0x7f, 19, 5, 0xD8, 0x200001);   /* ext does not exist in R3QPI */
	CHECK_EQ_U64(rd(0x7f, 19, 5, 0xD8), 0x1, "R3QPI bit 21 reserved");
	CHECK_EQ_U64(pmon_sim_violation_count(sim), 6, "R3QPI violation");
}

int main(void)
{
	cbo_freeze();
	cbo_resets();
	ha_imc_reserved_resets();
	other_boxes();
	sim_teardown();
	return check_done("test_sim_box");
}
