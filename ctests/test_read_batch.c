/*
 * test_read_batch.c - the backends' batched read (access.h read_batch) of
 * MSRs and PCI blocks, as the engine's read plan (regs.c) uses it: every
 * value equals what a single msr_read or pci_read_block gives, and a
 * failure gives its index and names the CPU and MSR, or the PCI function,
 * that failed, on the emulated machine and on fake device files.
 */
#define _XOPEN_SOURCE 700
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fake_hw.h"
#include "pmon/pmon.h"
#include "pmon/sim.h"
#include "access.h"

/* SNB-EP CBo 0: CTL0 0xd10, filter 0xd14, CTR0 0xd16 (socket-wide MSRs) */
#define C0_CTL0 0xd10u
#define C0_FILTER 0xd14u
#define C0_CTR0 0xd16u
#define NOT_AN_MSR 0x123u

/* A batch of n MSR reads (val[i] = MSR msr[i] of CPU cpu[i]). */
static int msr_batch(struct pmon_access *a, int n, const int *cpu, const uint32_t *msr, uint64_t *val,
		     int *bad, char *why, size_t whylen)
{
	struct pmon_read_req req[8];
	for (int i = 0; i < n; i++)
		req[i] = (struct pmon_read_req){ .cpu = cpu[i], .msr = msr[i], .val = &val[i] };
	return a->ops->read_batch(a, req, n, bad, NULL, why, whylen);
}

/* PCI blocks and MSRs in one batch: each as its single read gives it. */
static void mixed(struct pmon_access *a, const char *what, pmon_pci_addr_t d, uint32_t off, int cpu,
		  uint32_t msr)
{
	uint32_t blk[22], one[22];
	uint64_t m0 = 0, m1 = 0, single;
	char why[256] = "";
	int bad = -1;
	struct pmon_read_req req[3] = {
		{ .cpu = cpu, .msr = msr, .val = &m0 },
		{ .ndw = 22, .d = d, .off = off, .dw = blk },
		{ .cpu = cpu, .msr = msr, .val = &m1 },
	};
	memset(blk, 0xa5, sizeof blk);
	CHECK_EQ_INT(a->ops->read_batch(a, req, 3, &bad, NULL, why, sizeof why), 0, why);
	CHECK(bad == -1, "%s: no failure index on success (%d)", what, bad);
	CHECK_EQ_INT(a->ops->pci_read_block(a, d, off, one, 22, why, sizeof why), 0, why);
	for (int i = 0; i < 22; i++)
		CHECK(blk[i] == one[i], "%s: block dword %d (0x%x) as a single block read (0x%x)", what, i,
		      blk[i], one[i]);
	CHECK_EQ_INT(a->ops->msr_read(a, cpu, msr, &single, why, sizeof why), 0, why);
	CHECK(m0 == single && m1 == single, "%s: MSRs around the block as a single read", what);
	/* only some dwords wanted: those read as the whole block has them (the
	 * others may stay as they were) */
	uint32_t part[22];
	struct pmon_read_req some = { .ndw = 22, .d = d, .off = off, .dw = part,
				      .want = 1u << 0 | 1u << 1 | 1u << 14 | 1u << 21 };
	memset(part, 0xa5, sizeof part);
	CHECK_EQ_INT(a->ops->read_batch(a, &some, 1, &bad, NULL, why, sizeof why), 0, why);
	CHECK_EQ_INT(a->ops->read_batch(a, &some, 1, &bad, NULL, why, sizeof why), 0, why);
	for (int i = 0; i < 22; i++)
		if (some.want >> i & 1)
			CHECK(part[i] == one[i], "%s: wanted dword %d (0x%x) as the whole block's (0x%x)",
			      what, i, part[i], one[i]);
	/* a missing function fails the batch at its index and is named */
	pmon_pci_addr_t gone = d;
	gone.dev = 30;
	req[1] = (struct pmon_read_req){ .ndw = 22, .d = gone, .off = off, .dw = blk };  /* a new request */
	bad = -1;
	CHECK(a->ops->read_batch(a, req, 3, &bad, NULL, why, sizeof why) < 0, "%s: missing function fails", what);
	CHECK(bad == 1, "%s: the block failed (%d)", what, bad);
	CHECK(strstr(why, ":1e.") != NULL, "%s: names the function: %s", what, why);
}

static void same_as_single(struct pmon_access *a, const char *what, int n, const int *cpu,
			   const uint32_t *msr)
{
	uint64_t batch[8], one;
	char why[256] = "";
	int bad = -1;
	CHECK_EQ_INT(msr_batch(a, n, cpu, msr, batch, &bad, why, sizeof why), 0, why);
	CHECK(bad == -1, "%s: no failure index on success (%d)", what, bad);
	for (int i = 0; i < n; i++) {
		CHECK_EQ_INT(a->ops->msr_read(a, cpu[i], msr[i], &one, why, sizeof why), 0, why);
		CHECK(batch[i] == one, "%s: CPU %d MSR 0x%x as a single read (0x%llx, 0x%llx)", what, cpu[i],
		      msr[i], (unsigned long long)batch[i], (unsigned long long)one);
	}
}

static void names_the_failure(struct pmon_access *a, const char *what, int expect_rc)
{
	const int cpu[4] = { 0, 1, 1, 0 };
	const uint32_t msr[4] = { C0_CTL0, C0_CTR0, NOT_AN_MSR, C0_CTR0 };
	uint64_t v[4];
	char why[256] = "";
	int bad = -1;
	int rc = msr_batch(a, 4, cpu, msr, v, &bad, why, sizeof why);
	CHECK(rc == expect_rc, "%s: a missing MSR fails the batch (%d, want %d)", what, rc, expect_rc);
	CHECK(bad == 2, "%s: the third one failed (%d)", what, bad);
	CHECK(strstr(why, "CPU 1") && strstr(why, "MSR 0x123"), "%s: names CPU and MSR: %s", what, why);
}

static void on_the_emulator(void)
{
	struct pmon_sim_shape sh;
	struct pmon_access *a;
	char err[256];
	CHECK_EQ_INT(pmon_sim_shape_parse("clock=manual", &sh, err, sizeof err), 0, err);
	pmon_sim_t *sim = pmon_sim_create(&sh);
	pmon_sim_set_current(sim);
	CHECK_EQ_INT(pmon_sim_access_open(&a, err, sizeof err), 0, err);
	/* CBo 0 counts its clock (event 0x00, enable bit 22) */
	CHECK_EQ_INT(a->ops->msr_write(a, 0, C0_CTL0, 1u << 22, err, sizeof err), 0, err);
	pmon_sim_advance_ns(sim, 1000000);
	uint64_t ctr = 0;
	CHECK_EQ_INT(a->ops->msr_read(a, 0, C0_CTR0, &ctr, err, sizeof err), 0, err);
	CHECK(ctr > 0, "CBo 0 counted its clock over 1 ms (%llu)", (unsigned long long)ctr);
	const int cpu[5] = { 0, 1, 0, 5, 2 };
	const uint32_t msr[5] = { C0_CTR0, C0_CTL0, C0_FILTER, C0_CTR0, C0_CTL0 };
	same_as_single(a, "sim", 5, cpu, msr);
	names_the_failure(a, "sim", PMON_EIO);
	const int nocpu[1] = { 100000 };
	uint64_t v;
	int bad = -1;
	CHECK_EQ_INT(msr_batch(a, 1, nocpu, msr, &v, &bad, err, sizeof err), PMON_ENODEV,
		     "no such CPU");
	CHECK(bad == 0 && strstr(err, "CPU 100000"), "names the CPU: %s", err);
	/* iMC 0 of socket 0 (bus 0x3f) counting its DCLK: the block of its
	 * counters and controls 0xA0..0xF7 beside CBo 0's counter */
	pmon_pci_addr_t imc0 = { 0, 0x3f, 16, 0 };
	CHECK_EQ_INT(a->ops->pci_write(a, imc0, 0xF0, 1u << 22, err, sizeof err), 0, err);
	pmon_sim_advance_ns(sim, 1000);
	mixed(a, "sim", imc0, 0xA0, 0, C0_CTR0);
	/* the batch tells the machine's time at its reads */
	uint64_t at = 0, ctr0 = 0;
	struct pmon_read_req one = { .cpu = 0, .msr = C0_CTR0, .val = &ctr0 };
	pmon_sim_advance_ns(sim, 12345);
	CHECK_EQ_INT(a->ops->read_batch(a, &one, 1, &bad, &at, err, sizeof err), 0, err);
	CHECK_EQ_U64(at, pmon_sim_now_ns(sim), "the batch's instant is the machine's time");
	/* a block that would run past the function's 4 KiB (or wrap) is refused,
	 * the log off or on, and reads 0 */
	uint32_t dw[3] = { 1, 2, 3 };
	for (int log = 0; log < 2; log++) {
		pmon_sim_log_set_cap(sim, log ? 16 : 0);
		CHECK(a->ops->pci_read_block(a, imc0, 0xFFFFFFF8u, dw, 3, err, sizeof err) < 0,
		      "log %d: a wrapping block is refused", log);
		CHECK(a->ops->pci_read_block(a, imc0, 0xFF8, dw, 3, err, sizeof err) < 0,
		      "log %d: a block past 0xFFC is refused", log);
		CHECK(dw[0] == 0 && dw[1] == 0 && dw[2] == 0, "log %d: a failed block reads 0", log);
	}
	pmon_sim_log_set_cap(sim, 0);
	/* a block of more dwords than a want mask has bits (the rest of the
	 * function from the counters) reads every dword as a single read does */
	static uint32_t whole[(0x1000 - 0xA0) / 4];
	int nw = (int)(sizeof whole / sizeof whole[0]), differ = 0;
	memset(whole, 0xa5, sizeof whole);
	CHECK_EQ_INT(a->ops->pci_read_block(a, imc0, 0xA0, whole, nw, err, sizeof err), 0, err);
	for (int i = 0; i < nw; i++) {
		uint32_t single = 0;
		a->ops->pci_read(a, imc0, 0xA0 + 4u * (uint32_t)i, &single, err, sizeof err);
		differ += whole[i] != single;
	}
	CHECK(differ == 0, "a %d-dword block reads as its dwords one by one (%d differ)", nw, differ);
	a->ops->close(a);
	pmon_sim_destroy(sim);
}

static void on_fake_files(void)
{
	char base[256], err[512];
	struct fake_world w;
	struct pmon_access *a = NULL;
	if (fake_tmpdir(base, sizeof(base)) || fake_snbep_world(base, 1, &w)) {
		CHECK(0, "could not build the fake device files");
		return;
	}
	CHECK_EQ_INT(fake_msr_put(w.msr, 0, C0_CTR0, 0x123456789abull), 0, "put CTR0");
	CHECK_EQ_INT(fake_msr_put(w.msr, 1, C0_CTL0, 0x400000), 0, "put CTL0");
	CHECK_EQ_INT(fake_msr_put(w.msr, 3, C0_CTR0, 77), 0, "put CTR0 cpu 3");
	CHECK_EQ_INT(pmon_hw_access_open(&a, 4, err, sizeof err), 0, err);
	if (!a)
		return;
	const int cpu[3] = { 0, 1, 3 };
	const uint32_t msr[3] = { C0_CTR0, C0_CTL0, C0_CTR0 };
	uint64_t v[3];
	int bad = -1;
	CHECK_EQ_INT(msr_batch(a, 3, cpu, msr, v, &bad, err, sizeof err), 0, err);
	CHECK_EQ_U64(v[0], 0x123456789abull, "CPU 0 CTR0 as put");
	CHECK_EQ_U64(v[1], 0x400000, "CPU 1 CTL0 as put");
	CHECK_EQ_U64(v[2], 77, "CPU 3 CTR0 as put");
	same_as_single(a, "hw", 3, cpu, msr);
	pmon_pci_addr_t imc0 = { 0, 0x3f, 16, 0 };
	CHECK_EQ_INT(fake_pci_put(w.sysfs, 0, 0x3f, 16, 0, 0xA0, 0x89abcdef), 0, "put CTR0 low");
	CHECK_EQ_INT(fake_pci_put(w.sysfs, 0, 0x3f, 16, 0, 0xA4, 0x1234), 0, "put CTR0 high");
	CHECK_EQ_INT(fake_pci_put(w.sysfs, 0, 0x3f, 16, 0, 0xD8, 0x400304), 0, "put CTL0");
	mixed(a, "hw", imc0, 0xA0, 0, C0_CTR0);
	/* a CPU whose device file is not there */
	const int gone[2] = { 0, 7 };
	bad = -1;
	CHECK(msr_batch(a, 2, gone, msr, v, &bad, err, sizeof err) < 0, "CPU 7 absent");
	CHECK(bad == 1 && strstr(err, "CPU 7") && strstr(err, "MSR 0xd10"), "names CPU 7 MSR 0xd10: %s",
	      err);
	a->ops->close(a);
	fake_rmtree(base);
}

int main(void)
{
	on_the_emulator();
	on_fake_files();
	return check_done("test_read_batch");
}
