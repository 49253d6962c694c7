/* test_pci_block.c - a PCI box's counters are read as one block access per
 * read, and the read is tear-free: a counter whose low dword carries between
 * the two dword reads of the block (low read before the carry, high after)
 * comes out exact.  Proved on fake device files (the files hold the torn
 * pair the first read sees, and the carried value after it) and on the
 * emulated machine (its QPI clock counter is made to carry between the two
 * dwords by advancing emulated time).
 *
 * The fixed counter of an iMC channel comes in the same block (0xA0-0xD7).
 * A spy backend shares the machine's backend and replaces its block read
 * and its batch (whose blocks it reads the same way): it counts the block
 * reads and, when armed, makes the carry happen. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "fake_hw.h"
#include "machine.h"
#include "pmon/pmon.h"
#include "pmon/sim.h"

static char err[512];

/* ------------------------------------------------------------------ spy */

static struct {
	struct pmon_access acc;          /* what the machine uses meanwhile */
	struct pmon_access_ops ops;
	struct pmon_access *inner;
	int blocks;                      /* block reads made */
	/* armed: the next block read covering the counter at ctr_off of d makes
	 * its low dword carry; carry() does it, between or after the reads */
	int armed;
	pmon_pci_addr_t d;
	uint32_t ctr_off;
	void (*carry)(uint32_t lo_seen);
	uint32_t torn_lo, torn_hi;       /* the pair the armed read returned */
} spy;

static int same_fn(pmon_pci_addr_t x, pmon_pci_addr_t y)
{
	return x.domain == y.domain && x.bus == y.bus && x.dev == y.dev && x.func == y.func;
}

/* The hardware's order: dword by dword, ascending.  When armed, the counter's
 * low dword is read, then carry() runs, then the rest. */
static int spy_block(struct pmon_access *a, pmon_pci_addr_t d, uint32_t off, uint32_t *val,
		     int ndw, char *why, size_t whylen)
{
	const struct pmon_access_ops *in = spy.inner->ops;
	spy.blocks++;
	uint32_t end = off + 4 * (uint32_t)ndw;
	if (!spy.armed || !same_fn(d, spy.d) || spy.ctr_off < off || spy.ctr_off + 8 > end)
		return in->pci_read_block(a, d, off, val, ndw, why, whylen);
	spy.armed = 0;
	int lo_i = (int)(spy.ctr_off - off) / 4, rc;
	if ((rc = in->pci_read_block(a, d, off, val, lo_i + 1, why, whylen)))
		return rc;
	spy.carry(val[lo_i]);
	if ((rc = in->pci_read_block(a, d, spy.ctr_off + 4, val + lo_i + 1, ndw - lo_i - 1, why, whylen)))
		return rc;
	spy.torn_lo = val[lo_i];
	spy.torn_hi = val[lo_i + 1];
	return PMON_OK;
}

/* A batch as the hardware serves it: one read after the other, the blocks
 * through spy_block. */
static int spy_batch(struct pmon_access *a, struct pmon_read_req *req, int n, int *bad,
		     uint64_t *at_ns, char *why, size_t whylen)
{
	for (int i = 0; i < n; i++) {
		const struct pmon_read_req *q = &req[i];
		int rc = q->ndw ? spy_block(a, q->d, q->off, q->dw, q->ndw, why, whylen)
			 : spy.inner->ops->msr_read(a, q->cpu, q->msr, q->val, why, whylen);
		if (rc) {
			*bad = i;
			return rc;
		}
	}
	if (at_ns)                  /* the backend's clock (CLOCK_MONOTONIC on hardware) */
		*at_ns = pmon_clock_ns(a);
	return PMON_OK;
}

static void spy_close(struct pmon_access *a) { (void)a; }

static void spy_on(pmon_machine_t *m)
{
	spy.inner = m->acc;
	spy.ops = *m->acc->ops;
	spy.ops.pci_read_block = spy_block;
	spy.ops.read_batch = spy_batch;
	spy.ops.close = spy_close;
	spy.acc.ops = &spy.ops;
	spy.acc.priv = m->acc->priv;
	m->acc = &spy.acc;
}

static void spy_off(pmon_machine_t *m) { m->acc = spy.inner; }

static int add(pmon_machine_t *m, pmon_session_t *s, const char *name)
{
	pmon_encoding_t e;
	int rc = pmon_machine_encode(m, name, &e, err, sizeof(err));
	if (rc == PMON_OK && (rc = pmon_session_add(s, &e)))
		snprintf(err, sizeof(err), "%s", pmon_session_errmsg(s));
	return rc;
}

/* ------------------------------------------------------------ fake files */

static char base[256];
static struct fake_world w;
#define BUS1 0x7f
#define HI0 5u                 /* the counter's high dword before the carry */

static void put_ctr(unsigned func, unsigned off, uint32_t lo, uint32_t hi)
{
	fake_pci_put(w.sysfs, 0, BUS1, 16, func, off, lo);
	fake_pci_put(w.sysfs, 0, BUS1, 16, func, off + 4, hi);
}

/* After the torn read, the file holds what the counter holds: carried. */
static void files_carry(uint32_t lo_seen)
{
	(void)lo_seen;
	put_ctr(1, spy.ctr_off, 0x4, HI0 + 1);
}

static void on_files(void)
{
	pmon_machine_t *m;
	pmon_session_t *s;
	uint64_t v[5];
	const unsigned ch1 = 1;                      /* iMC channel 1: function 1 */
	const pmon_pci_addr_t imc1 = { 0, BUS1, 16, ch1 };

	if (fake_tmpdir(base, sizeof(base)) || fake_snbep_world(base, 1, &w)) {
		CHECK(0, "could not build the fake device files");
		return;
	}
	CHECK_EQ_INT(pmon_machine_open(&m, "msr", err, sizeof(err)), PMON_OK, err);
	if (!m)
		return;
	spy_on(m);
	pmon_session_create(m, &s);
	/* four counters of one box: CAS RD, WR, ACT and PRE on counters 0-3 */
	CHECK_EQ_INT(add(m, s, "snbep_unc_imc1::UNC_M_CAS_COUNT:RD:socket=1"), PMON_OK, err);
	CHECK_EQ_INT(add(m, s, "snbep_unc_imc1::UNC_M_CAS_COUNT:WR:socket=1"), PMON_OK, err);
	CHECK_EQ_INT(add(m, s, "snbep_unc_imc1::UNC_M_ACT_COUNT:socket=1"), PMON_OK, err);
	CHECK_EQ_INT(add(m, s, "snbep_unc_imc1::UNC_M_PRE_COUNT:PAGE_MISS:socket=1"), PMON_OK, err);
	CHECK_EQ_INT(add(m, s, "snbep_unc_imc1::UNC_M_CLOCKTICKS:socket=1"), PMON_OK, err);
	CHECK_EQ_INT(pmon_session_counter(s, 4), -1, "DCLK on the fixed counter");
	put_ctr(ch1, 0xd0, 500, 0);
	for (int i = 0; i < 4; i++)
		put_ctr(ch1, 0xa0 + 8 * (unsigned)pmon_session_counter(s, i), 1000u * (unsigned)i, 0);
	/* the counter under test starts at HI0:0x10000000 */
	unsigned c0 = 0xa0 + 8 * (unsigned)pmon_session_counter(s, 0);
	put_ctr(ch1, c0, 0x10000000, HI0);
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));

	/* one block read for the box's four counters and its fixed counter */
	int before = spy.blocks;
	for (int i = 1; i < 4; i++)
		put_ctr(ch1, 0xa0 + 8 * (unsigned)pmon_session_counter(s, i), 1000u * (unsigned)i + 7, 0);
	put_ctr(ch1, 0xd0, 500 + 9, 0);
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_INT(spy.blocks - before, 1, "five counters of one box: one block read");
	CHECK_EQ_U64(v[1], 7, "WR delta");
	CHECK_EQ_U64(v[3], 7, "PRE delta");
	CHECK_EQ_U64(v[4], 9, "DCLK delta");

	/* the torn pair: the low dword read just before it carried, the high
	 * dword after; then the counter holds (HI0+1):4.  About 2^32 counts
	 * since the start: 20 ms of wall time first, or the read refuses a
	 * count no box could make so fast (4 GHz x 64 a cycle, x2) */
	nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
	put_ctr(ch1, c0, 0xfffffff8, HI0 + 1);
	spy.armed = 1;
	spy.d = imc1;
	spy.ctr_off = c0;
	spy.carry = files_carry;
	before = spy.blocks;
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, pmon_session_errmsg(s));
	CHECK(spy.torn_lo == 0xfffffff8 && spy.torn_hi == HI0 + 1, "the first read was torn (%x:%08x)",
	      spy.torn_hi, spy.torn_lo);
	uint64_t want = ((uint64_t)(HI0 + 1) << 32 | 0x4) - ((uint64_t)HI0 << 32 | 0x10000000);
	CHECK_EQ_U64(v[0], want, "carry between the dword reads: the exact count, not 2^32 more");
	CHECK_EQ_INT(spy.blocks - before, 2, "the doubtful counter read once more");

	/* far from the carry, nothing is read twice */
	before = spy.blocks;
	put_ctr(ch1, c0, 0x100, HI0 + 1);
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_U64(v[0], want + 0xfc, "next read");
	CHECK_EQ_INT(spy.blocks - before, 1, "one block read");
	CHECK_EQ_INT(pmon_session_stop(s, v), PMON_OK, pmon_session_errmsg(s));
	pmon_session_destroy(s);
	spy_off(m);
	pmon_machine_close(m);
	fake_rmtree(base);
}

/* ------------------------------------------------------------ emulator */

static pmon_sim_t *sim;
static uint64_t carried_ns;

/* QPI's clock counts 1 per ns (qclk 1 GHz): carry the low dword. */
static void sim_carry(uint32_t lo_seen)
{
	uint64_t ns = (1ull << 32) - lo_seen + 16;
	pmon_sim_advance_ns(sim, ns);
	carried_ns += ns;
}

static void on_emulator(void)
{
	pmon_machine_t *m;
	pmon_session_t *s;
	uint64_t v[2];

	setenv("PMON_SIM", "clock=manual", 1);
	CHECK_EQ_INT(pmon_machine_open(&m, "sim", err, sizeof(err)), PMON_OK, err);
	if (!m)
		return;
	sim = pmon_sim_current();
	CHECK_EQ_U64(pmon_sim_shape(sim)->qclk_hz, 1000000000u, "QPI clock 1 GHz");
	spy_on(m);
	pmon_session_create(m, &s);
	CHECK_EQ_INT(add(m, s, "snbep_unc_qpi0::UNC_Q_CLOCKTICKS:socket=0"), PMON_OK, err);
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	uint64_t t0 = pmon_sim_now_ns(sim);

	/* bring the clock counter just below its low dword's carry */
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, pmon_session_errmsg(s));
	pmon_sim_advance_ns(sim, (1ull << 32) - 40 - v[0] % (1ull << 32));

	pmon_pci_addr_t qpi0 = { 0, (uint8_t)pmon_sim_socket_bus(sim, 0), 8, 2 };
	spy.armed = 1;
	spy.d = qpi0;
	spy.ctr_off = 0xa0 + 8 * (uint32_t)pmon_session_counter(s, 0);
	spy.carry = sim_carry;
	int before = spy.blocks;
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_INT(spy.armed, 0, "the counter's block was read");
	CHECK(spy.torn_lo >= 0xffffff00u, "the low dword was read just before its carry (%08x)",
	      spy.torn_lo);
	uint64_t elapsed = pmon_sim_now_ns(sim) - t0;
	CHECK(carried_ns > 0, "time advanced between the dword reads");
	CHECK_EQ_U64(v[0], elapsed, "QPI clocks: 1 per emulated ns, exact across the carry");
	CHECK_EQ_INT(spy.blocks - before, 2, "the doubtful counter read once more");
	CHECK_EQ_INT(pmon_session_stop(s, v), PMON_OK, pmon_session_errmsg(s));
	pmon_session_destroy(s);
	spy_off(m);
	pmon_machine_close(m);
}

int main(void)
{
	on_files();
	on_emulator();
	return check_done("test_pci_block");
}
